package dev.caplab.schema.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;
import org.junit.jupiter.api.Test;

/**
 * Every current record type against every released version of it, both directions: backward (today's reader reads
 * released data, e.g. a replay of the raw topics) and forward (a released reader reads today's data, e.g. a
 * not-yet-upgraded consumer). A breaking change, or removing a released type, fails the build here.
 */
class SchemaCompatibilityTest {

    @Test
    void everyCurrentSchemaIsBackwardAndForwardCompatibleWithEveryReleasedVersion() {
        List<SchemaSet> released = ReleasedSchemas.all();
        assertThat(released).isNotEmpty();
        List<String> problems = new ArrayList<>();
        for (SchemaSet version : released) {
            problems.addAll(incompatibilities(EventTypes.current(), version));
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void theCheckCatchesAFieldAddedWithoutDefaultAndARemovedType() {
        SchemaSet released = ReleasedSchemas.all().getFirst();
        Schema stepEnded = released.typesByFullName().get("dev.caplab.schema.event.StepEnded");
        Schema broken = new Schema.Parser().parse(stepEnded.toString().replace(
                "\"fields\":[", "\"fields\":[{\"name\":\"required\",\"type\":\"int\"},"));
        java.util.Map<String, Schema> types = new java.util.TreeMap<>(released.typesByFullName());
        types.put(broken.getFullName(), broken);
        types.remove("dev.caplab.schema.event.Annotation");

        List<String> problems = incompatibilities(new SchemaSet("broken", types), released);

        assertThat(problems).anyMatch(p -> p.contains("StepEnded") && p.contains("backward"));
        assertThat(problems).anyMatch(p -> p.contains("Annotation") && p.contains("removed"));
        assertThat(problems).noneMatch(p -> p.contains("RunStarted"));
    }

    static List<String> incompatibilities(SchemaSet current, SchemaSet released) {
        List<String> problems = new ArrayList<>();
        for (Schema old : released.records()) {
            Schema now = current.typesByFullName().get(old.getFullName());
            if (now == null) {
                problems.add(old.getFullName() + " of " + released.version() + " was removed");
                continue;
            }
            check("backward", now, old, released.version(), problems);
            check("forward", old, now, released.version(), problems);
        }
        return problems;
    }

    private static void check(String direction, Schema reader, Schema writer, String version, List<String> problems) {
        SchemaPairCompatibility result = SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
        if (result.getType() != SchemaCompatibilityType.COMPATIBLE) {
            problems.add(writer.getFullName() + " " + direction + " vs " + version + ": "
                    + result.getResult().getIncompatibilities());
        }
    }
}
