package dev.caplab.schema.vocabulary;

import dev.caplab.schema.event.AlertKind;

/**
 * How an alert about a run's input rather than its results is spelled: a record left out (dead-lettered) or a run
 * limit reached. The schema's {@link AlertKind} has no symbol for these, and adding one would break the forward
 * compatibility pinned against released readers (an enum without a default), so they are raised as {@link #KIND}
 * without a step index, their message starting with {@link #REJECTED} or {@link #LIMIT} and saying what happened; the
 * one place to change once the schema gets a kind for them. The streams app and the sink both raise them.
 */
public final class InputAlerts {

    /** The kind input alerts carry; their {@code stepIndex} is null. */
    public static final AlertKind KIND = AlertKind.STEP_FAILED;
    /** Message prefix of an alert for an input record left out. */
    public static final String REJECTED = "input rejected: ";
    /** Message prefix of an alert for a limit reached. */
    public static final String LIMIT = "limit reached: ";

    private InputAlerts() {
    }
}
