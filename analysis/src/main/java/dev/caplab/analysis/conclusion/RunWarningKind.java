package dev.caplab.analysis.conclusion;

import dev.caplab.schema.event.RunWarning;

/**
 * Why a run's answer is not what its sender may think: the kinds of the warnings a run conclusion carries
 * ({@link RunWarning}, which stores the kind by name so a new one never breaks an old reader). Decided from the
 * run's events, never from the order they arrived in; the run page and the report show them.
 */
public enum RunWarningKind {
    /** No step events and none of the recognised load metrics: the run has no step. */
    NO_LOAD_METRIC,
    /** A load metric arrived but never held a positive level long enough to be a step. */
    NO_STEP,
    /** Samples later than the run's end: stored, but in no step. */
    SAMPLES_AFTER_END,
    /** The run's last load level, above every step's, held too briefly to be a step: its samples are in none. */
    SHORT_LAST_LEVEL;

    /** A warning of this kind telling a person {@code message}: what happened and what to do. */
    public RunWarning warning(String message) {
        if (message == null || message.isBlank()) {
            throw new IllegalArgumentException("a " + name() + " warning needs a message");
        }
        return RunWarning.newBuilder().setKind(name()).setMessage(message).build();
    }
}
