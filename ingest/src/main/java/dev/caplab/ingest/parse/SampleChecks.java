package dev.caplab.ingest.parse;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.limits.SampleLimits;
import dev.caplab.schema.limits.SampleProblem;
import dev.caplab.schema.limits.SampleShape;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The door every sample passes before it may be published: its shape within the sample limits of
 * {@link IngestLimits} (schema's {@link SampleShape}, the one rule streams checks again), a run id that is a name
 * too, the time inside the accepted window and the line within its size. Every format (line protocol, k6 JSON, events
 * JSON, file adapters) calls it and turns a {@link LimitException} into an error naming its line and field.
 */
public final class SampleChecks {

    public static final String RUN_FIELD = "run";
    public static final String SOURCE_FIELD = SampleShape.SOURCE;
    public static final String METRIC_FIELD = SampleShape.METRIC;
    public static final String TIMESTAMP_FIELD = "timestamp";

    private final IngestLimits limits;
    private final SampleShape shape;

    public SampleChecks(IngestLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.shape = new SampleShape(limits.sample());
    }

    public IngestLimits limits() {
        return limits;
    }

    /** Checks everything of one sample of {@code runId} received at {@code now}; field names are the schema's. */
    public void check(String runId, Sample sample, Instant now) {
        name(RUN_FIELD, runId);
        check(sample, now);
    }

    /** Checks a sample whose run is checked elsewhere (a file's {@code --run}). */
    public void check(Sample sample, Instant now) {
        refuse(shape.problem(sample));
        timestamp(TIMESTAMP_FIELD, sample.getTimestamp(), now);
    }

    /**
     * Whether a sample made behind the door from samples that passed it (an exporter recipe's: its source and labels
     * rendered from theirs) has a source and labels the door would take; its metric is the recipe's own.
     */
    public boolean admitsDerived(Sample derived) {
        return shape.nameProblem(SOURCE_FIELD, derived.getSource()).isEmpty()
                && shape.labelsProblem(derived.getLabels()).isEmpty();
    }

    /** A run id, source or metric name: not blank, at most {@link SampleLimits#maxNameBytes()}. */
    public void name(String field, CharSequence value) {
        refuse(shape.nameProblem(field, value));
    }

    /** Label count, key and value sizes, and their total; the field named is the offending label's key. */
    public void labels(Map<? extends CharSequence, ? extends CharSequence> labels) {
        refuse(shape.labelsProblem(labels));
    }

    /** A sample time inside [{@link IngestLimits#earliest()}, now + {@link IngestLimits#maxAhead()}]. */
    public void timestamp(String field, Instant at, Instant now) {
        if (at == null) {
            throw new LimitException(field, "is required");
        }
        if (!inWindow(at, now)) {
            throw new LimitException(field, outOfWindow(at, now));
        }
    }

    public boolean inWindow(Instant at, Instant now) {
        return !at.isBefore(limits.earliest()) && !at.isAfter(limits.latest(now));
    }

    /** "2299-12-31T00:00:00Z is outside the accepted range 2000-01-01T00:00:00Z .. now + PT24H". */
    public String outOfWindow(Instant at, Instant now) {
        return at + " is outside the accepted range " + limits.earliest() + " .. " + limits.latest(now)
                + " (received at " + now + " + " + limits.maxAhead() + ")";
    }

    /** A line longer than {@link IngestLimits#maxLineBytes()}; the field is null: the whole line is refused. */
    public void lineLength(long bytes) {
        if (bytes > limits.maxLineBytes()) {
            throw new LimitException(null, "line is " + bytes + " bytes, over the limit of " + limits.maxLineBytes()
                    + " bytes");
        }
    }

    private static void refuse(Optional<SampleProblem> problem) {
        if (problem.isPresent()) {
            throw new LimitException(problem.get().field(), problem.get().reason());
        }
    }

    /** An input beyond a limit or blank where a value is required: which field and why. */
    public static final class LimitException extends RuntimeException {

        private final String field;

        public LimitException(String field, String reason) {
            super(reason, null, false, false);
            this.field = field;
        }

        /** The offending field (tag key, label key, {@code run}, ...), or null when the whole line is at fault. */
        public String field() {
            return field;
        }

        public String reason() {
            return getMessage();
        }
    }
}
