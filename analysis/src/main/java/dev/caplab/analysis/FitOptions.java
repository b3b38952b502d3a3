package dev.caplab.analysis;

import dev.caplab.schema.vocabulary.Planning;
import dev.caplab.analysis.cliff.CliffOptions;
import dev.caplab.analysis.fit.StepWeighting;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * How to fit one resource: its name, how repeated samples are weighted, how many breakpoints may be
 * tried, the cliff thresholds, and — when a capacity is wanted — the node's ceiling C (in the
 * resource's unit; measured, not nominal) and the planning margin.
 */
public record FitOptions(String resource, StepWeighting weighting, int maxBreakpoints, CliffOptions cliff,
                         OptionalDouble ceiling, double margin) {
    public FitOptions {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(weighting, "weighting");
        Objects.requireNonNull(cliff, "cliff");
        Objects.requireNonNull(ceiling, "ceiling");
        if (maxBreakpoints < 0 || maxBreakpoints > 2) {
            throw new IllegalArgumentException("maxBreakpoints must be 0, 1 or 2, got " + maxBreakpoints);
        }
        if (ceiling.isPresent() && !(ceiling.getAsDouble() > 0)) {
            throw new IllegalArgumentException(resource + ": ceiling must be > 0, got " + ceiling.getAsDouble());
        }
        if (!(margin > 0 && margin <= 1)) {
            throw new IllegalArgumentException(resource + ": margin must be in (0,1], got " + margin);
        }
    }

    /** Defaults: equal weight per step, up to 2 breakpoints, default cliff rules, no ceiling, margin 0.6. */
    public static FitOptions defaults(String resource) {
        return new FitOptions(resource, StepWeighting.EQUAL_PER_STEP, 2, CliffOptions.DEFAULT, OptionalDouble.empty(),
                Planning.DEFAULT_MARGIN);
    }

    /** These options with a node ceiling C, so the fit reports a safe capacity. */
    public FitOptions withCeiling(double c) {
        return new FitOptions(resource, weighting, maxBreakpoints, cliff, OptionalDouble.of(c), margin);
    }

    /** These options with another planning margin. */
    public FitOptions withMargin(double m) {
        return new FitOptions(resource, weighting, maxBreakpoints, cliff, ceiling, m);
    }

    /** These options with another step weighting. */
    public FitOptions withWeighting(StepWeighting w) {
        return new FitOptions(resource, w, maxBreakpoints, cliff, ceiling, margin);
    }
}
