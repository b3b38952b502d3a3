package dev.caplab.streams.contamination;

import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.schema.vocabulary.LabelNames;
import java.util.Objects;

/**
 * A step is contaminated when the summed sustained {@code metric} of samples labelled {@code labelKey=labelValue}
 * (processes outside the system under test, e.g. {@code sut=false}) exceeds {@code thresholdCores}.
 */
public record ContaminationRule(String metric, String labelKey, String labelValue, double thresholdCores) {

    public ContaminationRule {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(labelKey, "labelKey");
        Objects.requireNonNull(labelValue, "labelValue");
        if (!(thresholdCores >= 0)) {
            throw new IllegalArgumentException("thresholdCores must be >= 0, was " + thresholdCores);
        }
    }

    /** {@code cpu.cores} of samples labelled {@code sut=false} above 1 core. */
    public static ContaminationRule defaults() {
        return new ContaminationRule(MetricNames.CPU_CORES, LabelNames.SUT, "false", 1.0);
    }
}
