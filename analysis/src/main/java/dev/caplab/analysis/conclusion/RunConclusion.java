package dev.caplab.analysis.conclusion;

import dev.caplab.analysis.capacity.ResourceEstimate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The decision about one run that every reader uses: max stable load, the bottleneck, per-resource estimates, and the
 * warnings its reader must be told ({@link RunWarning}).
 */
public record RunConclusion(String modelName, String modelVersion, StableLoad stable, Optional<Bottleneck> bottleneck,
                            List<ResourceEstimate> resources, double margin, int stepsJudged, int stepsSkipped,
                            List<RunWarning> warnings) {
    public static final String MODEL_NAME = "caplab-run-conclusion";
    public static final String MODEL_VERSION = "1";

    public RunConclusion {
        Objects.requireNonNull(stable, "stable");
        Objects.requireNonNull(bottleneck, "bottleneck");
        resources = List.copyOf(resources);
        warnings = List.copyOf(warnings);
        if (!(margin > 0 && margin <= 1)) {
            throw new IllegalArgumentException("margin must be in (0, 1], got " + margin);
        }
    }

    /** A conclusion without warnings. */
    public RunConclusion(String modelName, String modelVersion, StableLoad stable, Optional<Bottleneck> bottleneck,
                         List<ResourceEstimate> resources, double margin, int stepsJudged, int stepsSkipped) {
        this(modelName, modelVersion, stable, bottleneck, resources, margin, stepsJudged, stepsSkipped, List.of());
    }

    /** This conclusion carrying {@code more} warnings after its own. */
    public RunConclusion withWarnings(List<RunWarning> more) {
        List<RunWarning> all = new java.util.ArrayList<>(warnings);
        all.addAll(more);
        return new RunConclusion(modelName, modelVersion, stable, bottleneck, resources, margin, stepsJudged,
                stepsSkipped, all);
    }
}
