package dev.caplab.ingest.parse;

import dev.caplab.schema.event.Sample;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * The door every sample passes before it may be published: identifiers present and within {@link IngestLimits},
 * labels within their count and sizes, the time inside the accepted window. The one place these rules live; every
 * format (line protocol, k6 JSON, events JSON, file adapters) calls it and turns a {@link LimitException} into an
 * error naming its line and field.
 */
public final class SampleChecks {

    public static final String RUN_FIELD = "run";
    public static final String SOURCE_FIELD = "source";
    public static final String METRIC_FIELD = "metric";
    public static final String TIMESTAMP_FIELD = "timestamp";

    private final IngestLimits limits;

    public SampleChecks(IngestLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
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
        name(SOURCE_FIELD, sample.getSource());
        name(METRIC_FIELD, sample.getMetric());
        labels(sample.getLabels());
        timestamp(TIMESTAMP_FIELD, sample.getTimestamp(), now);
    }

    /**
     * Whether a sample made behind the door from samples that passed it (an exporter recipe's: its source and labels
     * rendered from theirs) has a source and labels the door would take; its metric is the recipe's own.
     */
    public boolean admitsDerived(Sample derived) {
        try {
            name(SOURCE_FIELD, derived.getSource());
            labels(derived.getLabels());
            return true;
        } catch (LimitException e) {
            return false;
        }
    }

    /** A run id, source or metric name: not blank, at most {@link IngestLimits#maxNameBytes()}. */
    public void name(String field, CharSequence value) {
        if (value == null || value.toString().isBlank()) {
            throw new LimitException(field, "must not be blank");
        }
        int bytes = boundedUtf8Length(value, limits.maxNameBytes());
        if (bytes > limits.maxNameBytes()) {
            throw new LimitException(field, "name is " + bytes + " bytes, over the limit of " + limits.maxNameBytes()
                    + " bytes");
        }
    }

    /** Label count, key and value sizes, and their total; the field named is the offending label's key. */
    public void labels(Map<? extends CharSequence, ? extends CharSequence> labels) {
        if (labels.size() > limits.maxLabelsPerSample()) {
            throw new LimitException("labels", labels.size() + " labels, over the limit of "
                    + limits.maxLabelsPerSample());
        }
        // an upper bound first (3 bytes per char): exact UTF-8 lengths only for labels that might be over a limit
        long bound = 0;
        for (Map.Entry<? extends CharSequence, ? extends CharSequence> label : labels.entrySet()) {
            CharSequence key = label.getKey();
            if (key.toString().isBlank()) {
                throw new LimitException("labels", "a label key must not be blank");
            }
            int keyBytes = boundedUtf8Length(key, limits.maxLabelKeyBytes());
            if (keyBytes > limits.maxLabelKeyBytes()) {
                throw new LimitException(excerpt(key), "label key is " + keyBytes + " bytes, over the limit of "
                        + limits.maxLabelKeyBytes());
            }
            CharSequence value = label.getValue();
            int valueBytes = value == null ? 0 : boundedUtf8Length(value, limits.maxLabelValueBytes());
            if (valueBytes > limits.maxLabelValueBytes()) {
                throw new LimitException(excerpt(key), "label value is " + valueBytes + " bytes, over the limit of "
                        + limits.maxLabelValueBytes());
            }
            bound += 3L * (key.length() + (value == null ? 0 : value.length()));
        }
        if (bound <= limits.maxLabelBytesPerSample()) {
            return;
        }
        long total = 0;
        for (Map.Entry<? extends CharSequence, ? extends CharSequence> label : labels.entrySet()) {
            total += utf8Length(label.getKey()) + (label.getValue() == null ? 0 : utf8Length(label.getValue()));
        }
        if (total > limits.maxLabelBytesPerSample()) {
            throw new LimitException("labels", "labels take " + total + " bytes, over the limit of "
                    + limits.maxLabelBytesPerSample() + " per sample");
        }
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
            throw new LimitException(null, "line is " + bytes + " bytes, over the limit of " + limits.maxLineBytes());
        }
    }

    /** The UTF-8 length of {@code s} when it may exceed {@code limit}, else its char count (also within the limit). */
    private static int boundedUtf8Length(CharSequence s, int limit) {
        return 3L * s.length() <= limit ? s.length() : utf8Length(s);
    }

    /** UTF-8 length of {@code s}: every char below U+0800 but surrogates is 1 or 2 bytes, a surrogate pair 4. */
    public static int utf8Length(CharSequence s) {
        int length = s.length();
        long bytes = length;
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                bytes += c < 0x800 || Character.isSurrogate(c) ? 1 : 2;
            }
        }
        return (int) Math.min(bytes, Integer.MAX_VALUE);
    }

    private static String excerpt(CharSequence key) {
        return key.length() > 64 ? key.subSequence(0, 64) + "…" : key.toString();
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
