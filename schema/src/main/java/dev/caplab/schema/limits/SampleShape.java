package dev.caplab.schema.limits;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SummaryStats;
import dev.caplab.schema.text.Utf8Bytes;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The one rule for what shape a sample may have, within {@link SampleLimits}: a source and a metric that are not
 * blank and within the name size; labels within their count, with keys that are not blank, keys and values within
 * their sizes and all of them together within theirs; a summary with a count of at least 0 and no more quantiles,
 * nor longer quantile names, than labels and names may have. Ingest refuses beyond it at the door; streams checks it
 * again, since a record can reach Kafka without passing the door, and leaves such a sample out.
 */
public final class SampleShape {

    public static final String SOURCE = "source";
    public static final String METRIC = "metric";
    public static final String LABELS = "labels";
    public static final String SUMMARY_COUNT = "summary.count";
    public static final String SUMMARY_QUANTILES = "summary.quantiles";

    private static final int EXCERPT_CHARS = 64;

    private final SampleLimits limits;

    public SampleShape(SampleLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    public SampleLimits limits() {
        return limits;
    }

    /** What is wrong with the sample's shape (its series first, then its summary), or empty when nothing is. */
    public Optional<SampleProblem> problem(Sample sample) {
        Optional<SampleProblem> series = seriesProblem(sample.getSource(), sample.getMetric(), sample.getLabels());
        return series.isPresent() ? series : summaryProblem(sample.getSummary());
    }

    /**
     * What is wrong with a series (source, metric, labels), or empty: what every sample of the series shares, so a
     * caller that sees the same series often may check it once.
     */
    public Optional<SampleProblem> seriesProblem(CharSequence source, CharSequence metric,
            Map<? extends CharSequence, ? extends CharSequence> labels) {
        Optional<SampleProblem> p = nameProblem(SOURCE, source);
        if (p.isEmpty()) {
            p = nameProblem(METRIC, metric);
        }
        return p.isPresent() ? p : labelsProblem(labels);
    }

    /** A run id, source, metric or other name: not blank, at most {@link SampleLimits#maxNameBytes()}. */
    public Optional<SampleProblem> nameProblem(String field, CharSequence value) {
        if (value == null || value.toString().isBlank()) {
            return problem(field, "must not be blank");
        }
        int bytes = Utf8Bytes.boundedBy(value, limits.maxNameBytes());
        if (bytes > limits.maxNameBytes()) {
            return problem(field, "name is " + bytes + " bytes, over the limit of " + limits.maxNameBytes()
                    + " bytes");
        }
        return Optional.empty();
    }

    /** Label count, key and value sizes, and their total; a size's field is the offending label's key. */
    public Optional<SampleProblem> labelsProblem(Map<? extends CharSequence, ? extends CharSequence> labels) {
        if (labels.size() > limits.maxLabelsPerSample()) {
            return problem(LABELS, labels.size() + " labels, over the limit of " + limits.maxLabelsPerSample());
        }
        // an upper bound first (3 bytes per char): exact UTF-8 lengths only for labels that might be over a limit
        long bound = 0;
        for (Map.Entry<? extends CharSequence, ? extends CharSequence> label : labels.entrySet()) {
            CharSequence key = label.getKey();
            if (key.toString().isBlank()) {
                return problem(LABELS, "a label key must not be blank");
            }
            int keyBytes = Utf8Bytes.boundedBy(key, limits.maxLabelKeyBytes());
            if (keyBytes > limits.maxLabelKeyBytes()) {
                return problem(excerpt(key), "label key is " + keyBytes + " bytes, over the limit of "
                        + limits.maxLabelKeyBytes() + " bytes");
            }
            CharSequence value = label.getValue();
            int valueBytes = value == null ? 0 : Utf8Bytes.boundedBy(value, limits.maxLabelValueBytes());
            if (valueBytes > limits.maxLabelValueBytes()) {
                return problem(excerpt(key), "label value is " + valueBytes + " bytes, over the limit of "
                        + limits.maxLabelValueBytes() + " bytes");
            }
            bound += 3L * (key.length() + (value == null ? 0 : value.length()));
        }
        if (bound <= limits.maxLabelBytesPerSample()) {
            return Optional.empty();
        }
        long total = 0;
        for (Map.Entry<? extends CharSequence, ? extends CharSequence> label : labels.entrySet()) {
            total += Utf8Bytes.of(label.getKey()) + (label.getValue() == null ? 0 : Utf8Bytes.of(label.getValue()));
        }
        if (total > limits.maxLabelBytesPerSample()) {
            return problem(LABELS, "labels take " + total + " bytes, over the limit of "
                    + limits.maxLabelBytesPerSample() + " bytes per sample");
        }
        return Optional.empty();
    }

    /**
     * A summary's count of at least 0, at most {@link SampleLimits#maxLabelsPerSample()} quantiles, each name at most
     * {@link SampleLimits#maxNameBytes()}; empty for a sample without a summary.
     */
    public Optional<SampleProblem> summaryProblem(SummaryStats summary) {
        if (summary == null) {
            return Optional.empty();
        }
        if (summary.getCount() < 0) {
            return problem(SUMMARY_COUNT, "is " + summary.getCount() + ", must be >= 0");
        }
        Map<String, Double> quantiles = summary.getQuantiles();
        if (quantiles.size() > limits.maxLabelsPerSample()) {
            return problem(SUMMARY_QUANTILES, quantiles.size() + " quantiles, over the limit of "
                    + limits.maxLabelsPerSample());
        }
        for (String quantile : quantiles.keySet()) {
            int bytes = Utf8Bytes.boundedBy(quantile, limits.maxNameBytes());
            if (bytes > limits.maxNameBytes()) {
                return problem(SUMMARY_QUANTILES, "quantile name '" + excerpt(quantile) + "' is " + bytes
                        + " bytes, over the limit of " + limits.maxNameBytes() + " bytes");
            }
        }
        return Optional.empty();
    }

    /** At most the first 64 characters of {@code s}, marked with "…" when cut: a name fit for a message. */
    public static String excerpt(CharSequence s) {
        return s.length() > EXCERPT_CHARS ? s.subSequence(0, EXCERPT_CHARS) + "…" : s.toString();
    }

    private static Optional<SampleProblem> problem(String field, String reason) {
        return Optional.of(new SampleProblem(field, reason));
    }
}
