package dev.caplab.app.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A CSV JTL read here, independently of caplab's adapter: JMeter's default columns with a header line, one request
 * per line (no field of these plans holds a comma or a line break: every sample succeeds with message "OK").
 */
record JtlFile(long count, boolean allSucceeded, double elapsedSumMillis, double elapsedMinMillis,
               double elapsedMaxMillis) {

    static JtlFile read(Path jtl) throws IOException {
        List<String> lines = Files.readAllLines(jtl).stream().filter(l -> !l.isBlank()).toList();
        List<String> header = List.of(lines.getFirst().split(","));
        int elapsed = header.indexOf("elapsed");
        int success = header.indexOf("success");
        long count = 0;
        boolean allSucceeded = true;
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            if (cells.length != header.size()) {
                throw new IllegalStateException("JTL line with " + cells.length + " cells, header has "
                        + header.size() + ": " + line);
            }
            double millis = Double.parseDouble(cells[elapsed]);
            count++;
            sum += millis;
            min = Math.min(min, millis);
            max = Math.max(max, millis);
            allSucceeded &= "true".equals(cells[success]);
        }
        return new JtlFile(count, allSucceeded, sum, min, max);
    }
}
