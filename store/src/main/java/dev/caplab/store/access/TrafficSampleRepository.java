package dev.caplab.store.access;

import dev.caplab.store.row.RequestGroupRow;
import dev.caplab.store.row.RequestGroupRows;
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
import java.util.stream.IntStream;
import javax.sql.DataSource;

/**
 * Reads of a run's raw request samples for a per-endpoint breakdown, kept in ClickHouse where they are: the points of
 * its low-volume series (counters, window summaries) in time order, and per-request samples grouped by label values
 * and time slots with their exact quantiles, so no reader pulls one row per request. Read-only; the caller says which
 * metrics and labels mean what.
 */
public final class TrafficSampleRepository {

    private static final RecordCodec<TrafficPointRow> POINT = RecordCodec.of(TrafficPointRow.class);

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:\\-]{1,128}");
    private final TableAccess<SampleRow> access;

    public TrafficSampleRepository(DataSource dataSource) {
        this.access = new TableAccess<>(dataSource, SampleRepository.CODEC);
    }

    /** Series of some metrics of some kinds: the points of a run {@link #points} reads. */
    public record SeriesSelection(Collection<String> metrics, Collection<String> kinds) {

        public SeriesSelection {
            metrics = List.copyOf(metrics);
            kinds = List.copyOf(kinds);
        }

        private String condition(String metric, String kind) {
            return "(" + metric + " IN (" + literals(metrics) + ") AND " + kind + " IN (" + literals(kinds) + "))";
        }
    }

    /**
     * Every point of the run's series of each selection, in one query: the first selection's points by series and
     * time, then the next one's, as separate reads of each would return them. Empty selections select nothing.
     */
    public List<TrafficPointRow> points(String runId, List<SeriesSelection> selections) {
        List<SeriesSelection> used = selections.stream()
                .filter(s -> !s.metrics().isEmpty() && !s.kinds().isEmpty()).toList();
        if (used.isEmpty()) {
            return List.of();
        }
        String series = used.stream().map(s -> s.condition("metric", "kind")).collect(Collectors.joining(" OR "));
        StringBuilder selection = new StringBuilder("multiIf(");
        for (int i = 0; i < used.size(); i++) {
            selection.append(used.get(i).condition("s.m", "s.k")).append(", ").append(i).append(", ");
        }
        selection.append(used.size()).append(")");
        String sql = "SELECT toString(p.series_id), s.src, s.m, s.k, s.l, "
                + "toUnixTimestamp64Micro(p.ts), p.value, p.summary_window, p.summary_count, p.summary_quantiles "
                + "FROM " + Table.SAMPLE_POINTS.sqlName() + " AS p INNER JOIN (SELECT series_id, any(source) AS src, "
                + "any(metric) AS m, any(kind) AS k, any(labels) AS l FROM " + Table.SAMPLE_SERIES.sqlName()
                + " WHERE run_id = ? AND (" + series + ") GROUP BY series_id) AS s ON s.series_id = p.series_id"
                + " WHERE p.run_id = ? AND p.series_id IN (SELECT series_id FROM " + Table.SAMPLE_SERIES.sqlName()
                + " WHERE run_id = ? AND (" + series + ")) ORDER BY " + selection + ", p.series_id, p.ts";
        return access.query(sql, POINT::read, runId, runId, runId);
    }

    /**
     * The run's GAUGE samples of {@code metrics} (one per request) that carry label {@code requiredLabel}, grouped by
     * key, per slot and over the whole run, in one query. Each key column is the first of its label names with a
     * non-empty value ('' when none); a sample is failed when any of {@code failureLabels} has its value;
     * {@code onlyFailed} keeps failed samples only. Slot {@code i} (1-based) is {@code [fromMicros[i-1],
     * toMicros[i-1])}; with no slots every sample is in slot 1. The whole run's groups count every sample, in a slot
     * or in none, and carry slot 1.
     */
    public RequestGroupRows requestGroups(String runId, Collection<String> metrics, String requiredLabel,
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
        // with no slots every sample is in slot 1: one slot over all time, not the constant 1, which GROUPING refuses
        // ("argument is not in GROUP BY keys": the constant is folded out of the keys)
        long[] from = fromMicros.length == 0 ? new long[] {0} : fromMicros;
        long[] to = fromMicros.length == 0 ? new long[] {Long.MAX_VALUE} : toMicros;
        String slot = "arrayFirstIndex((a, b) -> " + t + " >= a AND " + t + " < b, [" + join(from) + "], ["
                + join(to) + "])";
        StringBuilder select = new StringBuilder("SELECT toInt32(").append(slot).append(") AS slot");
        for (int i = 0; i < keys.size(); i++) {
            select.append(", ").append(keys.get(i)).append(" AS k").append(i);
        }
        String q = quantiles.isEmpty() ? "[]" : "quantilesExact(" + quantiles.stream().map(String::valueOf)
                .collect(Collectors.joining(", ")) + ")(p.value)";
        select.append(", count(), countIf(").append(failed).append("), ").append(q).append(", min(").append(t)
                .append("), max(").append(t).append("), grouping(slot) AS whole_run FROM ")
                .append(Table.SAMPLE_POINTS.sqlName())
                .append(" AS p INNER JOIN (SELECT series_id, any(labels) AS l FROM ")
                .append(Table.SAMPLE_SERIES.sqlName()).append(" WHERE run_id = ? AND kind = 'GAUGE' AND metric IN (")
                .append(literals(metrics)).append(") AND mapContains(labels, ").append(literal(requiredLabel))
                .append(") GROUP BY series_id) AS s ON s.series_id = p.series_id WHERE p.run_id = ?");
        if (onlyFailed) {
            select.append(" AND ").append(failed);
        }
        String byKey = IntStream.range(0, keys.size()).mapToObj(i -> "k" + i).collect(Collectors.joining(", "));
        select.append(" GROUP BY GROUPING SETS ((slot").append(byKey.isEmpty() ? "" : ", " + byKey).append("), (")
                .append(byKey).append(")) ORDER BY whole_run, slot").append(byKey.isEmpty() ? "" : ", " + byKey);
        int width = keys.size();
        List<RequestGroupRow> perSlot = new ArrayList<>();
        List<RequestGroupRow> wholeRun = new ArrayList<>();
        access.query(select.toString(), rs -> {
            int s = rs.getInt(1);
            List<String> key = new ArrayList<>(width);
            for (int i = 0; i < width; i++) {
                key.add(rs.getString(i + 2));
            }
            long n = rs.getLong(width + 2);
            long bad = rs.getLong(width + 3);
            List<Double> values = doubles(rs.getArray(width + 4));
            boolean whole = rs.getInt(width + 7) != 0;
            RequestGroupRow row = new RequestGroupRow(whole ? 1 : s, key, n, bad, values, rs.getLong(width + 5),
                    rs.getLong(width + 6));
            (whole ? wholeRun : perSlot).add(row);
            return row;
        }, runId, runId);
        return new RequestGroupRows(perSlot, wholeRun);
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
