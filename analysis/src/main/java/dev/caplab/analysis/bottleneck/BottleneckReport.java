package dev.caplab.analysis.bottleneck;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Saturation of every step and the first resource to hit its ceiling, if any did. */
public record BottleneckReport(String modelName, String modelVersion, List<StepSaturation> steps,
                               Optional<FirstHit> firstHit) {
    public static final String MODEL_NAME = "bottleneck-first-hit";
    public static final String MODEL_VERSION = "1";

    public BottleneckReport {
        steps = List.copyOf(steps);
        Objects.requireNonNull(firstHit, "firstHit");
    }
}
