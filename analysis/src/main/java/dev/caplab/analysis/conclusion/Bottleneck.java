package dev.caplab.analysis.conclusion;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * The resource that limits a run, and which part of the one bottleneck rule named it ({@link Conclusions}).
 *
 * @param value     SMALLEST_SAFE_CAPACITY: the safe capacity x; FIRST_STEP_OVER_MARGIN: the use / ceiling in that step
 * @param stepIndex the step that named it (FIRST_STEP_OVER_MARGIN only)
 */
public record Bottleneck(String source, String metric, Rule rule, double value, OptionalInt stepIndex) {

    public Bottleneck {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(stepIndex, "stepIndex");
    }

    /** The two parts of the one rule: the same criterion (use reaches C·margin), fitted or observed. */
    public enum Rule {
        /** The fitted resource whose pre-knee line reaches C·margin at the smallest load (DESIGN "Capacity"). */
        SMALLEST_SAFE_CAPACITY,
        /** No fit with a ceiling yet: the first uncontaminated step where a resource's use reached C·margin. */
        FIRST_STEP_OVER_MARGIN
    }
}
