package dev.caplab.ingest.http;

import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.publish.RoutedSamples;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The 400 answer of a request whose valid lines were stored and whose bad lines were not (InfluxDB 1.x "partial
 * write"): the reason of the first bad lines, then every rejected line number, so a client knows exactly which lines
 * were stored (all others) and resends only the fixed ones.
 */
final class PartialWrite {

    static final int MAX_REASONS = 20;

    private PartialWrite() {
    }

    /** "partial write: line 2, field run: must not be blank; rejected lines: 2, 5-7; dropped=4 accepted=9 samples". */
    static String describe(RoutedSamples routed) {
        List<ParseError> errors = routed.errors();
        String reasons = errors.stream().limit(MAX_REASONS).map(ParseError::describe)
                .collect(Collectors.joining("; "));
        int more = errors.size() - MAX_REASONS;
        return "partial write: " + reasons + (more > 0 ? "; and " + more + " more" : "")
                + "; rejected lines: " + lineRanges(errors) + "; every other line was stored"
                + "; dropped=" + errors.size() + " accepted=" + routed.sampleCount() + " samples";
    }

    /** Sorted, de-duplicated line numbers as ranges: "2, 5-7, 9". */
    static String lineRanges(List<ParseError> errors) {
        long[] lines = errors.stream().mapToLong(ParseError::line).sorted().distinct().toArray();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            int j = i;
            while (j + 1 < lines.length && lines[j + 1] == lines[j] + 1) {
                j++;
            }
            if (!out.isEmpty()) {
                out.append(", ");
            }
            out.append(lines[i]);
            if (j > i) {
                out.append('-').append(lines[j]);
            }
            i = j;
        }
        return out.toString();
    }
}
