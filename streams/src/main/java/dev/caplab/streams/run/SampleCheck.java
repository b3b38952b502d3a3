package dev.caplab.streams.run;

import dev.caplab.schema.event.Sample;
import dev.caplab.streams.StateStrings;
import java.util.Map;
import java.util.Optional;

/** Whether a sample is within {@link RunLimits}: non-blank source and metric, bounded names, labels and values. */
final class SampleCheck {

    private SampleCheck() {
    }

    /** Why the sample cannot be aggregated, or empty when it can. */
    static Optional<String> problem(Sample s, RunLimits limits) {
        return seriesProblem(s.getSource(), s.getMetric(), s.getLabels(), limits).or(() -> summaryProblem(s, limits));
    }

    /**
     * Why a series (source, metric, labels) cannot be aggregated, or empty when it can: what every sample of the
     * series shares, so {@link SeriesInterner} checks it once per series.
     */
    static Optional<String> seriesProblem(String source, String metric, Map<String, String> labels,
            RunLimits limits) {
        if (source.isBlank()) {
            return Optional.of("blank source (metric " + clip(metric) + ")");
        }
        if (metric.isBlank()) {
            return Optional.of("blank metric (source " + clip(source) + ")");
        }
        Optional<String> p = tooLong("source", source, limits.maxNameBytes())
                .or(() -> tooLong("metric", metric, limits.maxNameBytes()));
        if (p.isPresent()) {
            return p;
        }
        if (labels.size() > limits.maxLabelsPerSample()) {
            return Optional.of(labels.size() + " labels on " + clip(metric) + ", more than "
                    + limits.maxLabelsPerSample());
        }
        long labelBytes = 0;
        for (Map.Entry<String, String> e : labels.entrySet()) {
            p = tooLong("label key", e.getKey(), limits.maxLabelKeyBytes())
                    .or(() -> tooLong("value of label " + clip(e.getKey()), e.getValue(), limits.maxLabelValueBytes()));
            if (p.isPresent()) {
                return p;
            }
            labelBytes += StateStrings.utf8Bytes(e.getKey()) + StateStrings.utf8Bytes(e.getValue());
        }
        if (labelBytes > limits.maxLabelBytesPerSample()) {
            return Optional.of("label bytes of " + clip(metric) + " are " + labelBytes + " together, more than "
                    + limits.maxLabelBytesPerSample());
        }
        return Optional.empty();
    }

    /** Why the sample's summary statistics cannot be aggregated, or empty when it has none or they can. */
    static Optional<String> summaryProblem(Sample s, RunLimits limits) {
        if (s.getSummary() == null) {
            return Optional.empty();
        }
        if (s.getSummary().getCount() < 0) {
            return Optional.of("summary count " + s.getSummary().getCount() + " on " + clip(s.getMetric())
                    + ", expected >= 0");
        }
        if (s.getSummary().getQuantiles().size() > limits.maxLabelsPerSample()) {
            return Optional.of(s.getSummary().getQuantiles().size() + " summary quantiles on "
                    + clip(s.getMetric()) + ", more than " + limits.maxLabelsPerSample());
        }
        for (CharSequence q : s.getSummary().getQuantiles().keySet()) {
            Optional<String> p = tooLong("quantile name", q, limits.maxNameBytes());
            if (p.isPresent()) {
                return p;
            }
        }
        return Optional.empty();
    }

    static Optional<String> tooLong(String what, CharSequence value, int maxBytes) {
        int bytes = StateStrings.utf8Bytes(value);
        return bytes > maxBytes ? Optional.of(what + " '" + clip(value) + "' is " + bytes + " bytes, more than "
                + maxBytes) : Optional.empty();
    }

    /** At most 40 characters of {@code s}, for messages. */
    static String clip(CharSequence s) {
        return s.length() <= 40 ? s.toString() : s.subSequence(0, 40) + "…";
    }
}
