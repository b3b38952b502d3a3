package dev.caplab.ingest.otlp;

import dev.caplab.ingest.parse.ParseError;
import java.util.List;
import java.util.stream.Collectors;

/** The {@code partial_success.error_message} of a request whose other points were stored: the first reasons. */
public final class OtlpRejections {

    static final int MAX_REASONS = 20;

    private OtlpRejections() {
    }

    /** "data point 3 (metric http.duration), field le: ...; data point 7 (...): ...; and 4 more". */
    public static String describe(List<ParseError> errors) {
        String reasons = errors.stream().limit(MAX_REASONS).map(OtlpRejections::describe)
                .collect(Collectors.joining("; "));
        int more = errors.size() - MAX_REASONS;
        return reasons + (more > 0 ? "; and " + more + " more" : "") + "; every other data point was stored";
    }

    private static String describe(ParseError e) {
        String where = "data point " + e.line() + " (metric " + e.excerpt() + ")";
        return e.field() == null || e.field().isEmpty() ? where + ": " + e.reason()
                : where + ", field " + e.field() + ": " + e.reason();
    }
}
