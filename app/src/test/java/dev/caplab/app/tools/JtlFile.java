package dev.caplab.app.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A CSV JTL read here, independently of caplab's adapter: JMeter's default columns with a header line, one request
 * per line (no field of these plans holds a comma or a line break: messages are "OK" or "Internal Server Error").
 */
record JtlFile(List<Row> rows) {

    /** One request as JMeter wrote it: its start ({@code timeStamp}, epoch ms), elapsed ms, label and outcome. */
    record Row(long timeStampMillis, double elapsedMillis, String label, boolean success) {
    }

    JtlFile {
        rows = List.copyOf(rows);
    }

    static JtlFile read(Path jtl) throws IOException {
        List<String> lines = Files.readAllLines(jtl).stream().filter(l -> !l.isBlank()).toList();
        List<String> header = List.of(lines.getFirst().split(","));
        int timeStamp = header.indexOf("timeStamp");
        int elapsed = header.indexOf("elapsed");
        int label = header.indexOf("label");
        int success = header.indexOf("success");
        List<Row> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            if (cells.length != header.size()) {
                throw new IllegalStateException("JTL line with " + cells.length + " cells, header has "
                        + header.size() + ": " + line);
            }
            rows.add(new Row(Long.parseLong(cells[timeStamp]), Double.parseDouble(cells[elapsed]), cells[label],
                    "true".equals(cells[success])));
        }
        return new JtlFile(rows);
    }

    /** The rows that {@code keep} holds for. */
    JtlFile where(Predicate<Row> keep) {
        return new JtlFile(rows.stream().filter(keep).toList());
    }

    long count() {
        return rows.size();
    }

    long failures() {
        return rows.stream().filter(r -> !r.success()).count();
    }

    double elapsedSumMillis() {
        return rows.stream().mapToDouble(Row::elapsedMillis).sum();
    }

    double elapsedMinMillis() {
        return rows.stream().mapToDouble(Row::elapsedMillis).min().orElseThrow();
    }

    double elapsedMaxMillis() {
        return rows.stream().mapToDouble(Row::elapsedMillis).max().orElseThrow();
    }
}
