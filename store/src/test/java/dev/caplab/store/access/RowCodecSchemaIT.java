package dev.caplab.store.access;

import dev.caplab.store.row.Column;
import dev.caplab.store.schema.Table;
import dev.caplab.store.testing.ClickHouseTestExtension;
import dev.caplab.store.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every repository's codec against the migrated schema as the engine describes it ({@code system.columns}): each
 * column a codec writes or reads exists, a derived column's type holds its component's Java type (a primitive never
 * in a Nullable column, a boxed number always in one), and a tuple's element names are its record's components, in
 * order. Nothing here is taken from the codec but the names and types it claims; the DDL is the truth.
 */
@ExtendWith(ClickHouseTestExtension.class)
class RowCodecSchemaIT {

    private static final List<RowCodec<?>> CODECS = List.of(RunRepository.CODEC, StepRepository.CODEC,
            SampleRepository.CODEC, SampleRepository.SERIES, SampleRepository.POINTS, SampleRepository.PLAIN_POINTS,
            StepAggregateRepository.CODEC, StepVerdictRepository.CODEC, CapacityFitRepository.CODEC,
            AnnotationRepository.CODEC, AlertRepository.CODEC, RunLatenessRepository.CODEC,
            RunConclusionRepository.CODEC, DeletedRunRepository.CODEC);

    private final TestDatabase db;

    RowCodecSchemaIT(TestDatabase db) {
        this.db = db;
    }

    @Test
    void everyTableHasACodecAndEveryCodecColumnIsInItsTableWithACompatibleType() {
        assertThat(CODECS.stream().map(RowCodec::table).collect(Collectors.toSet()))
                .as("a codec per table").isEqualTo(java.util.Arrays.stream(Table.values()).map(Table::sqlName)
                        .collect(Collectors.toSet()));
        List<String> mismatches = new ArrayList<>();
        for (RowCodec<?> codec : CODECS) {
            mismatches.addAll(mismatches(codec));
        }
        assertThat(mismatches).isEmpty();
        assertThat(CODECS.stream().filter(c -> c.derivedFrom() == null).map(RowCodec::table).distinct())
                .as("only the RowBinary-encoded sample tables are written by hand")
                .containsExactlyInAnyOrder(Table.SAMPLE_SERIES.sqlName(), Table.SAMPLE_POINTS.sqlName());
    }

    @Test
    void theHandWrittenSampleEncodersWriteEveryColumnTheSamplesViewReadsBack() {
        Set<String> written = new java.util.HashSet<>(SampleRepository.SERIES.columns());
        written.addAll(SampleRepository.POINTS.columns());
        assertThat(written).containsAll(SampleRepository.CODEC.columns());
        assertThat(SampleRepository.POINTS.columns()).startsWith(SampleRepository.PLAIN_POINTS.columns()
                .toArray(String[]::new));
    }

    /** A fit's segment (the schema's {@code Segment}) with two components swapped. */
    record SwappedSegment(double toX, double fromX, double intercept, double slope, Double slopeStdErr) {
    }

    /** A capacity fit whose segments are reordered, with a component the table has no column for. */
    record DriftedFit(String runId, List<SwappedSegment> segments, int stepsUsed, String notAColumn) {
    }

    /** A capacity fit reading a nullable column into a primitive, and a primitive column into a box. */
    record MistypedFit(String runId, double breakpointPValue, Integer stepsUsed,
                       @Column("margin") String marginAsText) {
    }

    @Test
    void aMissingColumnAReorderedTupleAndAMistypedComponentAreEachCaught() {
        assertThat(mismatches(RowCodec.derived(Table.CAPACITY_FITS.sqlName(), DriftedFit.class, true)))
                .satisfiesExactlyInAnyOrder(
                        m -> assertThat(m).contains("segments").contains("[to_x, from_x, intercept, slope,"
                                + " slope_std_err]").contains("[from_x, to_x, intercept, slope, slope_std_err]"),
                        m -> assertThat(m).contains("not_a_column").contains("no such column"));
        assertThat(mismatches(RowCodec.derived(Table.CAPACITY_FITS.sqlName(), MistypedFit.class, true)))
                .satisfiesExactlyInAnyOrder(
                        m -> assertThat(m).contains("breakpoint_p_value").contains("Nullable"),
                        m -> assertThat(m).contains("steps_used").contains("Nullable"),
                        m -> assertThat(m).contains("margin").contains("Float64").contains("String"));
    }

    private List<String> mismatches(RowCodec<?> codec) {
        Map<String, String> types = columnTypes(codec.table());
        List<String> out = new ArrayList<>();
        for (String column : codec.columns()) {
            if (!types.containsKey(column)) {
                out.add(codec.table() + "." + column + ": no such column in " + types.keySet());
            }
        }
        if (codec.derivedFrom() == null) {
            return out;
        }
        for (RecordCodec.StoredColumn c : codec.derivedFrom().storedColumns()) {
            String ddl = types.get(c.name());
            if (ddl == null) {
                continue;
            }
            String where = codec.table() + "." + c.name();
            if (c.nullWhenAbsent() && !nullable(ddl)) {
                out.add(where + ": part of a value that may be absent, so it must be Nullable, is " + ddl);
            }
            out.addAll(compatible(c, ddl, where, c.nullWhenAbsent() ? Nulls.ABSENT_VALUE : Nulls.COMPONENT));
        }
        return out;
    }

    /** What a NULL in a column means for the Java value it holds. */
    private enum Nulls {
        /** A component: a primitive never reads NULL, a boxed number may be null. */
        COMPONENT,
        /** A component of a flattened value: NULL when the value is absent, checked by the caller. */
        ABSENT_VALUE,
        /** A key, value or element of a Map or Array: never null. */
        NONE
    }

    /** Why a value of Java type {@code java} does not round-trip through a column of type {@code ddl}; empty if it does. */
    private static List<String> compatible(RecordCodec.StoredColumn column, String ddl, String where, Nulls nulls) {
        return compatible(column.javaType(), column.tuple(), ddl, where, nulls);
    }

    /**
     * Why a value of Java type {@code java} does not round-trip through a column of type {@code ddl}; empty if it
     * does. {@code tuple}: the elements the codec claims for a record or a list of them.
     */
    private static List<String> compatible(Type java, List<RecordCodec.StoredColumn> tuple, String ddl, String where,
                                           Nulls nulls) {
        Class<?> raw = raw(java);
        String base = base(ddl);
        List<String> out = new ArrayList<>();
        if (nulls == Nulls.COMPONENT && raw.isPrimitive() && nullable(ddl)) {
            out.add(where + ": a primitive " + raw + " would read a NULL of " + ddl + " as 0");
        }
        if (nulls == Nulls.COMPONENT && Set.of(Integer.class, Long.class, Double.class, Boolean.class).contains(raw)
                && !nullable(ddl)) {
            out.add(where + ": a null " + raw.getSimpleName() + " cannot be written to " + ddl + ", not Nullable");
        }
        Set<String> accepted = raw.isEnum() ? Set.of("String") : switch (raw.getName()) {
            case "java.lang.String" -> Set.of("String");
            case "int", "java.lang.Integer" -> Set.of("Int8", "Int16", "Int32", "UInt8", "UInt16");
            case "long", "java.lang.Long" -> Set.of("Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32",
                    "UInt64");
            case "double", "java.lang.Double" -> Set.of("Float32", "Float64");
            case "boolean", "java.lang.Boolean" -> Set.of("Bool");
            default -> null;
        };
        if (accepted != null) {
            if (!accepted.contains(base)) {
                out.add(where + ": " + java.getTypeName() + " does not hold " + ddl + " (expected one of " + accepted
                        + ")");
            }
        } else if (raw == Instant.class) {
            if (!base.startsWith("DateTime64(6")) {
                out.add(where + ": an Instant to the microsecond needs DateTime64(6, ...), is " + ddl);
            }
        } else if (raw == Map.class) {
            List<String> kv = arguments(base, "Map");
            if (kv == null) {
                out.add(where + ": a Map is stored in " + ddl);
            } else {
                out.addAll(compatible(typeArgument(java, 0), List.of(), kv.get(0), where + " key", Nulls.NONE));
                out.addAll(compatible(typeArgument(java, 1), List.of(), kv.get(1), where + " value", Nulls.NONE));
            }
        } else if (raw == List.class) {
            List<String> element = arguments(base, "Array");
            if (element == null) {
                out.add(where + ": a List is stored in " + ddl);
            } else {
                out.addAll(compatible(typeArgument(java, 0), tuple, element.getFirst(), where + "[]", Nulls.NONE));
            }
        } else if (!tuple.isEmpty()) {
            out.addAll(tuple(raw, tuple, base, where));
        } else {
            out.add(where + ": no stored form known for " + java.getTypeName());
        }
        return out;
    }

    /** A record as a named Tuple: the stored names of its parts, in order, are the tuple's element names. */
    private static List<String> tuple(Class<?> record, List<RecordCodec.StoredColumn> parts, String ddl,
                                      String where) {
        List<String> elements = arguments(ddl, "Tuple");
        if (elements == null) {
            return List.of(where + ": a " + record.getSimpleName() + " is stored in " + ddl + ", not a Tuple");
        }
        Map<String, String> named = new LinkedHashMap<>();
        for (String e : elements) {
            int space = e.indexOf(' ');
            named.put(e.substring(0, space), e.substring(space + 1).trim());
        }
        List<String> names = parts.stream().map(RecordCodec.StoredColumn::name).toList();
        if (!names.equals(List.copyOf(named.keySet()))) {
            return List.of(where + ": " + record.getSimpleName() + " stores its components as " + names
                    + " but the tuple's elements are " + List.copyOf(named.keySet()));
        }
        List<String> out = new ArrayList<>();
        for (RecordCodec.StoredColumn c : parts) {
            out.addAll(compatible(c, named.get(c.name()), where + "." + c.name(), Nulls.COMPONENT));
        }
        return out;
    }

    private Map<String, String> columnTypes(String table) {
        Map<String, String> out = new LinkedHashMap<>();
        for (List<String> row : TableAccess.query(db.dataSource(), "describing " + table, "SELECT name, type FROM"
                + " system.columns WHERE database = ? AND table = ? ORDER BY position", rs -> List.of(rs.getString(1),
                rs.getString(2)), db.name(), table)) {
            out.put(row.get(0), row.get(1));
        }
        assertThat(out).as("columns of " + table).isNotEmpty();
        return out;
    }

    private static boolean nullable(String ddl) {
        return strip(ddl, "LowCardinality").startsWith("Nullable(");
    }

    /** The type without LowCardinality and Nullable around it. */
    private static String base(String ddl) {
        return strip(strip(strip(ddl, "LowCardinality"), "Nullable"), "LowCardinality");
    }

    private static String strip(String ddl, String wrapper) {
        List<String> inner = arguments(ddl, wrapper);
        return inner == null ? ddl : inner.getFirst();
    }

    /** The top-level arguments of {@code wrapper(...)}, or null when {@code ddl} is not one. */
    private static List<String> arguments(String ddl, String wrapper) {
        String t = ddl.trim();
        if (!t.startsWith(wrapper + "(") || !t.endsWith(")")) {
            return null;
        }
        String inner = t.substring(wrapper.length() + 1, t.length() - 1);
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < inner.length(); i++) {
            char ch = inner.charAt(i);
            if (ch == '(') {
                depth++;
            } else if (ch == ')') {
                depth--;
            } else if (ch == ',' && depth == 0) {
                out.add(inner.substring(start, i).trim());
                start = i + 1;
            }
        }
        out.add(inner.substring(start).trim());
        return out;
    }

    private static Class<?> raw(Type type) {
        return type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
    }

    private static Type typeArgument(Type type, int i) {
        return ((ParameterizedType) type).getActualTypeArguments()[i];
    }
}
