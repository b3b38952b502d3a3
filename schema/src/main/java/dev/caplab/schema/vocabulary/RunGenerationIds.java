package dev.caplab.schema.vocabulary;

import java.util.Optional;

/**
 * How the runs of one run id follow each other: a test sent to an id whose run nobody started and that ended idle
 * begins the next generation, {@code k6}, then {@code k6.2}, {@code k6.3}... Ingest names them by this rule, readers
 * link them by it (only between runs nobody declared: a client may name a run {@code v1.2} itself).
 */
public final class RunGenerationIds {

    /** Between a run id and its generation number. */
    public static final String SEPARATOR = ".";

    private RunGenerationIds() {
    }

    /** The {@code n}th run of tests sent to {@code runId} ({@code n} ≥ 2). */
    public static String generation(String runId, int n) {
        if (n < 2) {
            throw new IllegalArgumentException("generation of " + runId + " must be >= 2, was " + n);
        }
        return runId + SEPARATOR + n;
    }

    /** The run {@code runId} would continue when it is a later generation: {@code k6} for {@code k6.2}. */
    public static Optional<String> previous(String runId) {
        int dot = runId.lastIndexOf(SEPARATOR);
        if (dot <= 0) {
            return Optional.empty();
        }
        String base = runId.substring(0, dot);
        int n;
        try {
            n = Integer.parseInt(runId.substring(dot + 1));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (n < 2 || !runId.substring(dot + 1).equals(Integer.toString(n))) {
            return Optional.empty();
        }
        return Optional.of(n == 2 ? base : generation(base, n - 1));
    }

    /** The run that would continue {@code runId}: {@code k6.2} for {@code k6}, {@code k6.3} for {@code k6.2}. */
    public static String next(String runId) {
        Optional<String> prev = previous(runId);
        if (prev.isEmpty()) {
            return generation(runId, 2);
        }
        String digits = runId.substring(runId.lastIndexOf(SEPARATOR) + 1);
        return generation(runId.substring(0, runId.lastIndexOf(SEPARATOR)), Integer.parseInt(digits) + 1);
    }
}
