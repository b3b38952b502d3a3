package dev.caplab.analysis.conclusion;

import dev.caplab.analysis.capacity.ResourceEstimate;
import dev.caplab.analysis.throughput.GeneratorLimit;
import dev.caplab.analysis.throughput.ThroughputLimit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The decision about one run that every reader uses: max stable load, the bottleneck, per-resource estimates, the
 * throughput limit (where the request rate stopped growing) and whether the load generator, not the server, set it,
 * and the warnings its reader must be told ({@link RunWarning}).
 */
public record RunConclusion(String modelName, String modelVersion, StableLoad stable, Optional<Bottleneck> bottleneck,
                            List<ResourceEstimate> resources, double margin, int stepsJudged, int stepsSkipped,
                            Optional<ThroughputLimit> throughputLimit, Optional<GeneratorLimit> generatorLimit,
                            List<RunWarning> warnings) {
    public static final String MODEL_NAME = "caplab-run-conclusion";
    public static final String MODEL_VERSION = "1";

    public RunConclusion {
        Objects.requireNonNull(stable, "stable");
        Objects.requireNonNull(bottleneck, "bottleneck");
        Objects.requireNonNull(throughputLimit, "throughputLimit");
        Objects.requireNonNull(generatorLimit, "generatorLimit");
        if (generatorLimit.isPresent() && throughputLimit.isEmpty()) {
            throw new IllegalArgumentException("a generator limit needs a throughput limit");
        }
        resources = List.copyOf(resources);
        warnings = List.copyOf(warnings);
        if (!(margin > 0 && margin <= 1)) {
            throw new IllegalArgumentException("margin must be in (0, 1], got " + margin);
        }
    }

    /** A conclusion without a throughput limit and without warnings. */
    public RunConclusion(String modelName, String modelVersion, StableLoad stable, Optional<Bottleneck> bottleneck,
                         List<ResourceEstimate> resources, double margin, int stepsJudged, int stepsSkipped) {
        this(modelName, modelVersion, stable, bottleneck, resources, margin, stepsJudged, stepsSkipped,
                Optional.empty(), Optional.empty(), List.of());
    }

    /** This conclusion carrying {@code more} warnings after its own. */
    public RunConclusion withWarnings(List<RunWarning> more) {
        List<RunWarning> all = new java.util.ArrayList<>(warnings);
        all.addAll(more);
        return new RunConclusion(modelName, modelVersion, stable, bottleneck, resources, margin, stepsJudged,
                stepsSkipped, throughputLimit, generatorLimit, all);
    }
}
