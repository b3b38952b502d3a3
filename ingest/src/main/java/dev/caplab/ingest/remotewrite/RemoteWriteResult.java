package dev.caplab.ingest.remotewrite;

import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.publish.RoutedSamples;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What one remote write request gave: the samples to publish (by run), the rejected series (a {@link ParseError}
 * whose line is the series' 1-based position in the request and whose excerpt is the series), and the values that
 * are not samples (stale markers, other NaN).
 */
public record RemoteWriteResult(RoutedSamples routed, int seriesCount, int staleMarkers, int nanValues) {

    static final int MAX_REASONS = 20;

    /**
     * "rejected 1 of 3 series (every other series was stored: 4 samples): series 2 up{job="x"}, field run: no run
     * id ...; skipped 1 stale marker(s), 0 NaN value(s)".
     */
    public String describeRejections() {
        List<ParseError> errors = routed.errors();
        String reasons = errors.stream().limit(MAX_REASONS)
                .map(e -> "series " + e.line() + " " + e.excerpt()
                        + (e.field() == null ? "" : ", field " + e.field()) + ": " + e.reason())
                .collect(Collectors.joining("; "));
        int more = errors.size() - MAX_REASONS;
        return "rejected " + errors.size() + " of " + seriesCount + " series (every other series was stored: "
                + routed.sampleCount() + " samples): " + reasons + (more > 0 ? "; and " + more + " more" : "")
                + "; skipped " + staleMarkers + " stale marker(s), " + nanValues + " NaN value(s)";
    }
}
