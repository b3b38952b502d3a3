package dev.caplab.query.web;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecordBase;
import tools.jackson.core.Version;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.introspect.AnnotatedClass;
import tools.jackson.databind.introspect.AnnotatedMember;
import tools.jackson.databind.introspect.AnnotatedMethod;
import tools.jackson.databind.introspect.NopAnnotationIntrospector;

/**
 * Writes Avro specific records (the schema module's generated classes) as JSON objects whose properties are the
 * record's schema fields, under the schema's names and in its order: {@code rSquared}, not the {@code rsquared}
 * Jackson would derive from {@code getRSquared()}, and never {@code schema} or {@code specificData}. Everything else
 * is Jackson's own: nested records and lists of records the same way, enums by name, {@code Instant}s as the mapper
 * writes them, and annotations on a view ({@code @JsonUnwrapped}) or on a mix-in ({@code @JsonProperty} to rename,
 * {@code @JsonIgnore} to hide) win, because this module's introspector only fills in what annotations leave open.
 */
public final class AvroRecordsModule extends JacksonModule {

    private final Map<Class<? extends SpecificRecordBase>, Class<?>> mixIns;

    /** Avro records as their schemas have them. */
    public AvroRecordsModule() {
        this(Map.of());
    }

    /** Avro records as their schemas have them, less what each record class's mix-in renames or hides. */
    public AvroRecordsModule(Map<Class<? extends SpecificRecordBase>, Class<?>> mixIns) {
        this.mixIns = Map.copyOf(mixIns);
    }

    @Override
    public String getModuleName() {
        return "caplab-avro-records";
    }

    @Override
    public Version version() {
        return Version.unknownVersion();
    }

    @Override
    public void setupModule(SetupContext context) {
        // appended: Jackson's own annotations (on the class or its mix-in) are asked first and win
        context.appendAnnotationIntrospector(new SchemaFields());
        mixIns.forEach(context::setMixIn);
    }

    /** Names, order and the set of properties of a specific record, read from its schema. */
    private static final class SchemaFields extends NopAnnotationIntrospector {

        private static final ClassValue<Map<String, String>> FIELD_BY_GETTER = new ClassValue<>() {
            @Override
            protected Map<String, String> computeValue(Class<?> type) {
                Map<String, String> byGetter = new HashMap<>();
                for (String field : fieldNames(type)) {
                    // the compiler's getter is "get" + the field name capitalised: getRSquared for rSquared
                    String key = "get" + field.toLowerCase(Locale.ROOT);
                    if (byGetter.putIfAbsent(key, field) != null) {
                        throw new IllegalStateException(type.getName() + " has fields whose names differ only in"
                                + " case (" + field + ", " + byGetter.get(key) + "): their getters cannot be told apart");
                    }
                }
                return Map.copyOf(byGetter);
            }
        };

        @Override
        public Version version() {
            return Version.unknownVersion();
        }

        @Override
        public String findImplicitPropertyName(MapperConfig<?> config, AnnotatedMember member) {
            return schemaField(member);
        }

        /** A specific record's getter that reads no schema field (getSchema, getSpecificData) is not a property. */
        @Override
        public boolean hasIgnoreMarker(MapperConfig<?> config, AnnotatedMember member) {
            return member instanceof AnnotatedMethod method && method.getParameterCount() == 0
                    && isSpecificRecord(method.getDeclaringClass()) && schemaField(method) == null;
        }

        @Override
        public String[] findSerializationPropertyOrder(MapperConfig<?> config, AnnotatedClass type) {
            return isSpecificRecord(type.getRawType()) ? fieldNames(type.getRawType()).toArray(String[]::new) : null;
        }

        private static String schemaField(AnnotatedMember member) {
            if (!(member instanceof AnnotatedMethod method) || method.getParameterCount() != 0
                    || !isSpecificRecord(method.getDeclaringClass())) {
                return null;
            }
            return FIELD_BY_GETTER.get(method.getDeclaringClass()).get(method.getName().toLowerCase(Locale.ROOT));
        }

        private static boolean isSpecificRecord(Class<?> type) {
            return SpecificRecordBase.class.isAssignableFrom(type) && type != SpecificRecordBase.class;
        }

        private static List<String> fieldNames(Class<?> type) {
            Schema schema = Objects.requireNonNull(SpecificData.get().getSchema(type), type::getName);
            return schema.getFields().stream().map(Schema.Field::name).toList();
        }
    }
}
