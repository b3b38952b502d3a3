package dev.caplab.app.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reads Locust's own {@code --csv} statistics, the count a caplab ingest is checked against. */
final class LocustStats {

    private LocustStats() {
    }

    /** "Request Count" of the Aggregated row of {@code PREFIX_stats.csv} (Locust 2.x columns). */
    static long aggregatedRequestCount(Path statsCsv) throws IOException {
        List<String> lines = Files.readAllLines(statsCsv);
        List<String> header = List.of(lines.getFirst().split(","));
        int column = header.indexOf("Request Count");
        int name = header.indexOf("Name");
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",");
            if (cells.length > column && cells[name].replace("\"", "").equals("Aggregated")) {
                return Long.parseLong(cells[column].replace("\"", ""));
            }
        }
        throw new IllegalStateException("no Aggregated row in " + statsCsv + ": " + lines);
    }
}
