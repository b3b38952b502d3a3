package dev.caplab.store.access;

import dev.caplab.store.row.RequestGroupRow;
import dev.caplab.store.row.SampleRow;
import dev.caplab.store.row.TrafficPointRow;
import dev.caplab.store.schema.Table;
import java.sql.Array;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * Reads of a run's raw request samples for a per-endpoint breakdown, kept in ClickHouse where they are: the points of
 * its low-volume series (counters, window summaries) in time order, and per-request samples grouped by label values
 * and time slots with their exact quantiles, so no reader pulls one row per request. Read-only; the caller says which
 * metrics and labels mean what.
 */
public final class TrafficSampleRepository {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:\\-]{1,128}");
    private final TableAccess<SampleRow> access;

    public TrafficSampleRepository(DataSource dataSource) {
        this.access = new TableAccess<>(dataSource, SampleRepository.CODEC);
    }

    /** Every point of the run's series of {@code metrics} of one of {@code kinds}, by series and time. */
    public List<TrafficPointRow> points(String runId, Collection<String> metrics, Collection<String> kinds) {
        if (metrics.isEmpty() || kinds.isEmpty()) {
            return List.of();
        }
        String sql = "SELECT toString(p.series_id), s.src, s.m, s.k, s.l, "
                + "toUnixTimestamp64Micro(p.ts), p.value, p.summary_window, p.summary_count, p.summary_quantiles "
                + "FROM " + Table.SAMPLE_POINTS.sqlName() + " AS p INNER JOIN (SELECT series_id, any(source) AS src, "
                + "any(metric) AS m, any(kind) AS k, any(labels) AS l FROM "
                + Table.SAMPLE_SERIES.sqlName() + " WHERE run_id = ? AND metric IN (" + literals(metrics)
                + ") AND kind IN (" + literals(kinds) + ") GROUP BY series_id) AS s ON s.series_id = p.series_id WHERE p.run_id = ? AND p.series_id IN "
                + "(SELECT series_id FROM " + Table.SAMPLE_SERIES.sqlName() + " WHERE run_id = ? AND metric IN ("
                + literals(metrics) + ") AND kind IN (" + literals(kinds) + ")) ORDER BY p.series_id, p.ts";
        return access.query(sql, rs -> {
            Fields f = new Fields(rs);
            return new TrafficPointRow(f.string(), f.string(), f.string(), f.string(), f.stringMap(), f.int64(),
                    f.float64(), f.string(), f.nullableInt64(), f.doubleMap());
        }, runId, runId, runId);
    }

    /**
     * The run's GAUGE samples of {@code metrics} (one per request) that carry label {@code requiredLabel}, grouped by
     * key and slot. Each key column is the first of its label names with a non-empty value ('' when none); a sample
     * is failed when any of {@code failureLabels} has its value; {@code onlyFailed} keeps failed samples only. Slot
     * {@code i} (1-based) is {@code [fromMicros[i-1], toMicros[i-1])}; with no slots every sample is in slot 1.
     */
    public List<RequestGroupRow> requestGroups(String runId, Collection<String> metrics, String requiredLabel,
            List<List<String>> keyLabels, Map<String, String> failureLabels, boolean onlyFailed, long[] fromMicros,
            long[] toMicros, List<Double> quantiles) {
        if (metrics.isEmpty() || fromMicros.length != toMicros.length) {
            throw new IllegalArgumentException("metrics must not be empty and slots must pair up: "
                    + fromMicros.length + " starts, " + toMicros.length + " ends");
        }
        List<String> keys = keyLabels.stream().map(names -> names.isEmpty() ? "''" : "coalesce(nullIf("
                + names.stream().map(n -> "s.l[" + literal(n) + "]").collect(Collectors.joining(", ''), nullIf("))
                + ", ''), '')").toList();
        String failed = failureLabels.isEmpty() ? "0" : failureLabels.entrySet().stream()
                .map(e -> "s.l[" + literal(e.getKey()) + "] = " + literal(e.getValue()))
                .collect(Collectors.joining(" OR ", "(", ")"));
        String t = "toUnixTimestamp64Micro(p.ts)";
        String slot = fromMicros.length == 0 ? "1" : "arrayFirstIndex((a, b) -> " + t + " >= a AND " + t + " < b, ["
                + join(fromMicros) + "], [" + join(toMicros) + "])";
        StringBuilder select = new StringBuilder("SELECT toInt32(").append(slot).append(") AS slot");
        for (int i = 0; i < keys.size(); i++) {
            select.append(", ").append(keys.get(i)).append(" AS k").append(i);
        }
        String q = quantiles.isEmpty() ? "[]" : "quantilesExact(" + quantiles.stream().map(String::valueOf)
                .collect(Collectors.joining(", ")) + ")(p.value)";
        select.append(", count(), countIf(").append(failed).append("), ").append(q).append(", min(").append(t)
                .append("), max(").append(t).append(") FROM ").append(Table.SAMPLE_POINTS.sqlName())
                .append(" AS p INNER JOIN (SELECT series_id, any(labels) AS l FROM ")
                .append(Table.SAMPLE_SERIES.sqlName()).append(" WHERE run_id = ? AND kind = 'GAUGE' AND metric IN (")
                .append(literals(metrics)).append(") AND mapContains(labels, ").append(literal(requiredLabel))
                .append(") GROUP BY series_id) AS s ON s.series_id = p.series_id WHERE p.run_id = ?");
        if (onlyFailed) {
            select.append(" AND ").append(failed);
        }
        select.append(" GROUP BY slot");
        for (int i = 0; i < keys.size(); i++) {
            select.append(", k").append(i);
        }
        select.append(" ORDER BY slot");
        for (int i = 0; i < keys.size(); i++) {
            select.append(", k").append(i);
        }
        int width = keys.size();
        return access.query(select.toString(), rs -> {
            Fields f = new Fields(rs);
            int s = f.int32();
            List<String> key = new ArrayList<>(width);
            for (int i = 0; i < width; i++) {
                key.add(f.string());
            }
            long n = f.int64();
            long bad = f.int64();
            List<Double> values = doubles(rs.getArray(width + 4));
            return new RequestGroupRow(s, key, n, bad, values, rs.getLong(width + 5), rs.getLong(width + 6));
        }, runId, runId);
    }

    private static List<Double> doubles(Array array) throws java.sql.SQLException {
        List<Double> out = new ArrayList<>();
        Object raw = array.getArray();
        if (raw instanceof double[] d) {
            for (double v : d) {
                out.add(v);
            }
        } else {
            for (Object v : (Object[]) raw) {
                out.add(((Number) v).doubleValue());
            }
        }
        return out;
    }

    private static String join(long[] values) {
        return java.util.Arrays.stream(values).mapToObj(Long::toString).collect(Collectors.joining(", "));
    }

    private static String literals(Collection<String> names) {
        return names.stream().sorted().map(TrafficSampleRepository::literal).collect(Collectors.joining(", "));
    }

    /** A metric or label name as an SQL string literal; names outside the vocabulary's alphabet are refused. */
    private static String literal(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a metric or label name: " + name);
        }
        return "'" + name + "'";
    }
}
