package dev.caplab.query.runs;

import dev.caplab.query.web.BadRequestParameterException;
import java.time.Instant;
import java.util.Map;

/** Which runs to list: exact matches on the given fields, labels as key=value, a start-time range and a page. */
public record RunFilter(String sut, String version, String provider, String region, String tier, String tool,
                        Map<String, String> labels, Instant from, Instant to, int limit, int offset) {

    public static final int MAX_LIMIT = 1000;

    public RunFilter {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new BadRequestParameterException("limit", limit, "must be between 1 and " + MAX_LIMIT);
        }
        if (offset < 0) {
            throw new BadRequestParameterException("offset", offset, "must not be negative");
        }
        if (from != null && to != null && from.isAfter(to)) {
            throw new BadRequestParameterException("from", from, "is after to=" + to);
        }
    }

    /** No restriction, first page. */
    public static RunFilter all() {
        return new RunFilter(null, null, null, null, null, null, Map.of(), null, null, 100, 0);
    }
}
