package dev.caplab.analysis.conclusion;

import dev.caplab.analysis.capacity.ResourceEstimate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The decision about one run that every reader uses: max stable load, the bottleneck, per-resource estimates. */
public record RunConclusion(String modelName, String modelVersion, StableLoad stable, Optional<Bottleneck> bottleneck,
                            List<ResourceEstimate> resources, double margin, int stepsJudged, int stepsSkipped) {
    public static final String MODEL_NAME = "caplab-run-conclusion";
    public static final String MODEL_VERSION = "1";

    public RunConclusion {
        Objects.requireNonNull(stable, "stable");
        Objects.requireNonNull(bottleneck, "bottleneck");
        resources = List.copyOf(resources);
        if (!(margin > 0 && margin <= 1)) {
            throw new IllegalArgumentException("margin must be in (0, 1], got " + margin);
        }
    }
}
