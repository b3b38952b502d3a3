package dev.caplab.analysis.conclusion;

import java.util.Objects;

/**
 * What a run's reader must be told because caplab could not do what the input asked: the conclusion carries these,
 * the run page and the report show them. Decided from the run's events, never from the order they arrived in.
 */
public record RunWarning(Kind kind, String message) {

    /** Why the run's answer is not what its sender may think. */
    public enum Kind {
        /** No step events and none of the recognised load metrics: the run has no step. */
        NO_LOAD_METRIC,
        /** A load metric arrived but never held a positive level long enough to be a step. */
        NO_STEP,
        /** Samples later than the run's end: stored, but in no step. */
        SAMPLES_AFTER_END,
        /** The run's last load level, above every step's, held too briefly to be a step: its samples are in none. */
        SHORT_LAST_LEVEL
    }

    public RunWarning {
        Objects.requireNonNull(kind, "kind");
        if (message == null || message.isBlank()) {
            throw new IllegalArgumentException("a warning needs a message");
        }
    }
}
