package dev.caplab.ingest.runs;

import java.time.Instant;
import java.util.Objects;

/**
 * Where some samples of one write went: the run they were stored under, how that run took them, and how many.
 *
 * @param runId   the run the samples were stored under
 * @param sentTo  the run id the client named ({@code db=}, a {@code run} tag or label)
 * @param kind    how the run took them
 * @param samples how many samples
 * @param endedAt the end of the run that ended (for {@link Kind#NEW_RUN}, of the last run sent to {@code sentTo};
 *                for {@link Kind#AFTER_DELETION}, when that run was deleted); null for {@link Kind#RUNNING}
 */
public record Landing(String runId, String sentTo, Kind kind, int samples, Instant endedAt) {

    /** How a run took a write's samples. */
    public enum Kind {
        /** A run still going (or not yet known): the usual case. */
        RUNNING("running"),
        /** Later than the end of a run nobody started: they begin the next run, {@code <run>.2}, {@code <run>.3}... */
        NEW_RUN("new-run"),
        /** Inside the span of a run that ended: they amend it as late data. */
        LATE("late"),
        /** Later than the end of a declared run: stored, in no step. */
        AFTER_END("after-end"),
        /** Sent to a run a client deleted: a deleted run takes nothing, so they begin the next run as well. */
        AFTER_DELETION("new-run");

        private final String text;

        Kind(String text) {
            this.text = text;
        }

        /** The word of the {@code X-Caplab-Landing} header. */
        public String text() {
            return text;
        }
    }

    public Landing {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(sentTo, "sentTo");
        Objects.requireNonNull(kind, "kind");
    }

    /** This landing and {@code other}'s samples, of the same run and kind, as one. */
    public Landing plus(Landing other) {
        return new Landing(runId, sentTo, kind, samples + other.samples, endedAt);
    }

    /** What the client must be told, or null when nothing is worth saying (a running run). */
    public String warning() {
        return switch (kind) {
            case RUNNING -> null;
            case NEW_RUN -> "the last run sent to " + sentTo + " ended at " + endedAt + " (nobody started it; it had "
                    + "no input for the idle time): " + samples + " later sample(s) begin a new run, " + runId;
            case LATE -> "run " + runId + " ended at " + endedAt + ": " + samples + " sample(s) inside its span amend "
                    + "it as late data";
            case AFTER_END -> "run " + runId + " ended at " + endedAt + ": " + samples + " sample(s) after its end are "
                    + "stored but belong to no step; send a new test under a new run id";
            case AFTER_DELETION -> "run " + sentTo + " was deleted at " + endedAt + ": " + samples + " sample(s) sent"
                    + " to it begin a new run, " + runId;
        };
    }
}
