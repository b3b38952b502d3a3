package dev.caplab.schema.serde;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunDeleted;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunLateness;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.event.StepVerdict;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecordBase;

/** The event record types written to Kafka as top-level values, and the current schema of every named type. */
public final class EventTypes {

    /** The types that share {@code caplab.runs}; the lifecycle serde decodes them by fingerprint. */
    public static final List<Class<? extends SpecificRecordBase>> LIFECYCLE =
            List.of(RunStarted.class, StepStarted.class, StepEnded.class, RunEnded.class, Annotation.class,
                    RunDeleted.class);

    /** Every top-level event type, lifecycle first. */
    public static final List<Class<? extends SpecificRecordBase>> ALL = List.of(
            RunStarted.class, StepStarted.class, StepEnded.class, RunEnded.class, Annotation.class, RunDeleted.class,
            SampleBatch.class, StepAggregate.class, StepVerdict.class, CapacityFit.class, Alert.class, RunLateness.class,
            RunConclusion.class);

    private EventTypes() {
    }

    /** The schema of a generated class, as compiled into it. */
    public static Schema schemaOf(Class<? extends SpecificRecordBase> type) {
        try {
            return (Schema) type.getField("SCHEMA$").get(null);
        } catch (ReflectiveOperationException e) {
            throw new SchemaCatalogException(type.getName() + " is not an Avro-generated class with SCHEMA$", e);
        }
    }

    /** Every named type reachable from the current event types (nested records and enums included). */
    public static SchemaSet current() {
        Map<String, Schema> types = new TreeMap<>();
        for (Class<? extends SpecificRecordBase> type : ALL) {
            collectNamed(schemaOf(type), types);
        }
        return new SchemaSet("current", types);
    }

    private static void collectNamed(Schema schema, Map<String, Schema> into) {
        switch (schema.getType()) {
            case RECORD -> {
                if (into.putIfAbsent(schema.getFullName(), schema) == null) {
                    schema.getFields().forEach(f -> collectNamed(f.schema(), into));
                }
            }
            case ENUM, FIXED -> into.putIfAbsent(schema.getFullName(), schema);
            case ARRAY -> collectNamed(schema.getElementType(), into);
            case MAP -> collectNamed(schema.getValueType(), into);
            case UNION -> schema.getTypes().forEach(t -> collectNamed(t, into));
            default -> {
                // primitives carry no name
            }
        }
    }
}
