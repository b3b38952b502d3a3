package dev.caplab.app.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Locust's own statistics, what a caplab ingest is checked against: with {@code --csv-full-history}, the
 * once-a-second Aggregated rows of {@code PREFIX_stats_history.csv} (Locust 2.x columns), and the
 * {@link Completions} the IT's locustfile writes when Locust quits.
 */
final class LocustStats {

    /** One history row: when (whole seconds, as Locust writes them), the user count and requests so far. */
    record HistoryRow(long epochSecond, int users, long totalRequests) {
    }

    /**
     * Locust's final request count (its {@code stats.total} at the quit event, after every user stopped) and the
     * instant of every successful request event, in epoch microseconds.
     */
    record Completions(long requests, long[] micros) {

        static Completions read(Path json) throws IOException {
            JsonNode root = JsonMapper.builder().build().readTree(json.toFile());
            long[] micros = new long[root.path("completions").size()];
            for (int i = 0; i < micros.length; i++) {
                micros[i] = Math.round(root.path("completions").get(i).asDouble() * 1e6);
            }
            return new Completions(root.path("requests").asLong(), micros);
        }

        /** Requests completed in a whole second that starts in {@code [fromMicros, toMicros)}. */
        long inSecondsStartingBetween(long fromMicros, long toMicros) {
            return Arrays.stream(micros).map(t -> Math.floorDiv(t, 1_000_000L) * 1_000_000L)
                    .filter(second -> second >= fromMicros && second < toMicros).count();
        }
    }

    private LocustStats() {
    }

    /** The Aggregated rows of {@code PREFIX_stats_history.csv}, in time order. */
    static List<HistoryRow> history(Path historyCsv) throws IOException {
        Table table = Table.read(historyCsv);
        List<HistoryRow> rows = new ArrayList<>();
        for (String[] row : table.rows()) {
            if (table.cell(row, "Name").equals("Aggregated")) {
                rows.add(new HistoryRow(Long.parseLong(table.cell(row, "Timestamp")),
                        Integer.parseInt(table.cell(row, "User Count")),
                        Long.parseLong(table.cell(row, "Total Request Count"))));
            }
        }
        return rows;
    }

    /**
     * An Aggregated history row in full: its totals since start and its window percentiles, column name ("95%") to
     * milliseconds; empty when Locust wrote N/A.
     */
    record AggregatedRow(long epochSecond, int users, long totalRequests, long totalFailures, double totalMeanMs,
                         Map<String, Double> windowPercentiles) {

        /**
         * The mean latency of the requests Locust counted between {@code earlier} and this row, from the two rows'
         * Total Request Count n and Total Average Response Time m: (m·n − m₀·n₀) / (n − n₀).
         */
        double meanSinceMs(AggregatedRow earlier) {
            return (totalMeanMs * totalRequests - earlier.totalMeanMs * earlier.totalRequests)
                    / (totalRequests - earlier.totalRequests);
        }

        /** Locust writes 0 for every window percentile while its 10 s window is still empty. */
        boolean windowHasData() {
            return windowPercentiles.values().stream().anyMatch(ms -> ms > 0);
        }
    }

    /** The Aggregated rows of {@code PREFIX_stats_history.csv} with their percentile columns, in time order. */
    static List<AggregatedRow> aggregatedRows(Path historyCsv) throws IOException {
        Table table = Table.read(historyCsv);
        List<String> percentColumns = table.header().stream().filter(c -> c.matches("\\d+(\\.\\d+)?%")).toList();
        List<AggregatedRow> rows = new ArrayList<>();
        for (String[] row : table.rows()) {
            if (!table.cell(row, "Name").equals("Aggregated")) {
                continue;
            }
            Map<String, Double> percentiles = new LinkedHashMap<>();
            for (String column : percentColumns) {
                String cell = table.cell(row, column);
                if (!cell.equals("N/A")) {
                    percentiles.put(column, Double.parseDouble(cell));
                }
            }
            rows.add(new AggregatedRow(Long.parseLong(table.cell(row, "Timestamp")),
                    Integer.parseInt(table.cell(row, "User Count")),
                    Long.parseLong(table.cell(row, "Total Request Count")),
                    Long.parseLong(table.cell(row, "Total Failure Count")),
                    Double.parseDouble(table.cell(row, "Total Average Response Time")), percentiles));
        }
        return rows;
    }

    /**
     * One figure of the Aggregated rows by second: {@code "User Count"} or a window percentile column such as
     * {@code "95%"}. Seconds whose value is N/A or 0 (Locust's empty window) are left out.
     */
    static java.util.SortedMap<Long, Double> aggregatedColumn(Path historyCsv, String column) throws IOException {
        java.util.SortedMap<Long, Double> out = new java.util.TreeMap<>();
        for (AggregatedRow row : aggregatedRows(historyCsv)) {
            Double value = column.equals("User Count") ? Double.valueOf(row.users()) : row.windowPercentiles().get(column);
            if (value != null && value > 0) {
                out.put(row.epochSecond(), value);
            }
        }
        return out;
    }

    /** One per-endpoint history row (with {@code --csv-full-history}): method, name and the totals since start. */
    record EndpointHistoryRow(long epochSecond, String method, String name, long totalRequests, long totalFailures,
                              Map<String, Double> windowPercentiles) {

        boolean windowHasData() {
            return windowPercentiles.values().stream().anyMatch(ms -> ms > 0);
        }
    }

    /** The per-endpoint (not Aggregated) rows of {@code PREFIX_stats_history.csv}, in file order. */
    static List<EndpointHistoryRow> endpointHistory(Path historyCsv) throws IOException {
        List<Map<String, String>> rows = QuotedCsv.read(historyCsv);
        List<EndpointHistoryRow> out = new ArrayList<>();
        for (Map<String, String> row : rows) {
            if (row.get("Name").equals("Aggregated") && row.get("Type").isEmpty()) {
                continue;
            }
            Map<String, Double> percentiles = new LinkedHashMap<>();
            row.forEach((column, cell) -> {
                if (column.matches("\\d+(\\.\\d+)?%") && !cell.equals("N/A")) {
                    percentiles.put(column, Double.parseDouble(cell));
                }
            });
            out.add(new EndpointHistoryRow(Long.parseLong(row.get("Timestamp")), row.get("Type"), row.get("Name"),
                    Long.parseLong(row.get("Total Request Count")), Long.parseLong(row.get("Total Failure Count")),
                    percentiles));
        }
        return out;
    }

    /** The rows of {@code PREFIX_stats.csv} or {@code PREFIX_failures.csv}, column name to cell. */
    static List<Map<String, String>> rows(Path csv) throws IOException {
        return QuotedCsv.read(csv);
    }

    /** RFC 4180 CSV as Python's csv module writes it: fields quoted when they hold commas or quotes. */
    private static final class QuotedCsv {

        static List<Map<String, String>> read(Path csv) throws IOException {
            List<List<String>> records = parse(Files.readString(csv));
            List<String> header = records.getFirst();
            List<Map<String, String>> out = new ArrayList<>();
            for (List<String> r : records.subList(1, records.size())) {
                if (r.size() == 1 && r.getFirst().isEmpty()) {
                    continue;
                }
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 0; i < header.size(); i++) {
                    row.put(header.get(i), i < r.size() ? r.get(i) : "");
                }
                out.add(row);
            }
            return out;
        }

        private static List<List<String>> parse(String text) {
            List<List<String>> records = new ArrayList<>();
            List<String> record = new ArrayList<>();
            StringBuilder field = new StringBuilder();
            boolean quoted = false;
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (quoted) {
                    if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                        field.append('"');
                        i++;
                    } else if (c == '"') {
                        quoted = false;
                    } else {
                        field.append(c);
                    }
                } else if (c == '"') {
                    quoted = true;
                } else if (c == ',') {
                    record.add(field.toString());
                    field.setLength(0);
                } else if (c == '\n' || c == '\r') {
                    if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                        i++;
                    }
                    record.add(field.toString());
                    field.setLength(0);
                    records.add(record);
                    record = new ArrayList<>();
                } else {
                    field.append(c);
                }
            }
            if (field.length() > 0 || !record.isEmpty()) {
                record.add(field.toString());
                records.add(record);
            }
            return records;
        }
    }

    /** A Locust CSV: a header and rows without quoted commas (names here are plain). */
    private record Table(List<String> header, List<String[]> rows) {

        static Table read(Path csv) throws IOException {
            List<String> lines = Files.readAllLines(csv);
            List<String[]> rows = new ArrayList<>();
            for (String line : lines.subList(1, lines.size())) {
                rows.add(line.replace("\"", "").split(",", -1));
            }
            return new Table(List.of(lines.getFirst().replace("\"", "").split(",", -1)), rows);
        }

        String cell(String[] row, String column) {
            int i = header.indexOf(column);
            if (i < 0) {
                throw new IllegalStateException("no column " + column + " in " + header);
            }
            return row[i];
        }
    }
}
