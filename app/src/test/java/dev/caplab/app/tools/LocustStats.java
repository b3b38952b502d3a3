package dev.caplab.app.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Locust's own {@code --csv} statistics, what a caplab ingest is checked against: the Aggregated row of
 * {@code PREFIX_stats.csv} and, with {@code --csv-full-history}, the once-a-second Aggregated rows of
 * {@code PREFIX_stats_history.csv} (Locust 2.x columns).
 */
final class LocustStats {

    /** One history row: when (whole seconds, as Locust writes them), the user count and requests so far. */
    record HistoryRow(long epochSecond, int users, long totalRequests) {
    }

    private LocustStats() {
    }

    /** "Request Count" of the Aggregated row of {@code PREFIX_stats.csv}. */
    static long aggregatedRequestCount(Path statsCsv) throws IOException {
        Table table = Table.read(statsCsv);
        for (String[] row : table.rows()) {
            if (table.cell(row, "Name").equals("Aggregated")) {
                return Long.parseLong(table.cell(row, "Request Count"));
            }
        }
        throw new IllegalStateException("no Aggregated row in " + statsCsv);
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

    /** Requests Locust counted between two instants, its cumulative count interpolated linearly between rows. */
    static double requestsBetween(List<HistoryRow> history, Instant from, Instant to) {
        return totalAt(history, to) - totalAt(history, from);
    }

    private static double totalAt(List<HistoryRow> history, Instant at) {
        double t = at.getEpochSecond() + at.getNano() / 1e9;
        HistoryRow before = history.getFirst();
        for (HistoryRow row : history) {
            if (row.epochSecond() >= t) {
                if (row.epochSecond() == before.epochSecond()) {
                    return row.totalRequests();
                }
                double share = (t - before.epochSecond()) / (row.epochSecond() - before.epochSecond());
                return before.totalRequests() + share * (row.totalRequests() - before.totalRequests());
            }
            before = row;
        }
        return before.totalRequests();
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
