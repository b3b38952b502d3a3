package dev.caplab.analysis.capacity;

import dev.caplab.analysis.ResourceFit;
import dev.caplab.analysis.fit.FitStatistics;
import dev.caplab.analysis.fit.LinearFit;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * What a run says about one resource's capacity: the pre-knee line y = base + slope·x with its coefficient
 * covariance (so a plan can re-derive x_max at any margin, with its uncertainty), the x range it was fitted on, the
 * node's ceiling C (empty when unknown), the knee (first breakpoint) and whether a cliff was seen, with the last
 * stable x before it. Stored in the run conclusion; {@link #capacityAt} is the one place safe capacity is computed.
 */
public record ResourceEstimate(String source, String metric, LinearFit preKnee, double fromX, double toX,
                               OptionalDouble ceiling, OptionalDouble kneeX, boolean cliff, OptionalInt cliffStepIndex,
                               OptionalDouble lastStableX) {

    public ResourceEstimate {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(preKnee, "preKnee");
        Objects.requireNonNull(ceiling, "ceiling");
        Objects.requireNonNull(kneeX, "kneeX");
        Objects.requireNonNull(cliffStepIndex, "cliffStepIndex");
        Objects.requireNonNull(lastStableX, "lastStableX");
        if (!(fromX <= toX)) {
            throw new IllegalArgumentException(metric + "@" + source + ": fromX " + fromX + " > toX " + toX);
        }
        if (cliff && lastStableX.isEmpty()) {
            throw new IllegalArgumentException(metric + "@" + source + ": a cliff needs the last stable x before it");
        }
    }

    /**
     * The estimate of one fitted resource: the fit's pre-knee line over its first {@code preKneeSteps} distinct
     * loads ({@code sortedXs}), its knee, and its cliff (at step {@code cliffStepIndex} when known).
     */
    public static ResourceEstimate of(String source, String metric, ResourceFit fit, double[] sortedXs,
                                      OptionalDouble ceiling, OptionalInt cliffStepIndex) {
        int lastPreKnee = Math.min(fit.preKneeSteps(), sortedXs.length) - 1;
        return new ResourceEstimate(source, metric, fit.preKnee(), sortedXs[0], sortedXs[Math.max(0, lastPreKnee)],
                ceiling, fit.breakpoints().isEmpty() ? OptionalDouble.empty()
                        : OptionalDouble.of(fit.breakpoints().getFirst().x()),
                fit.cliff().cliff(), fit.cliff().cliff() ? cliffStepIndex : OptionalInt.empty(),
                fit.cliff().cliff() ? OptionalDouble.of(fit.cliff().lastStableX()) : OptionalDouble.empty());
    }

    /** x_max = (C·margin − base)/slope with its SE, capped at the last stable x past a cliff; empty without C. */
    public Optional<CapacityEstimate> capacityAt(double margin) {
        if (ceiling.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(CapacityModel.estimate(metric, preKnee, ceiling.getAsDouble(), margin, lastStableX));
    }

    /**
     * 95 % interval of the safe capacity at {@code margin}: x_max ± t(0.975, dof)·SE(x_max), clipped at 0. Empty
     * without a ceiling, without residual degrees of freedom, when the resource does not grow with load, or when a
     * cliff capped the safe x (the cap is a measured step, not an estimate).
     */
    public Optional<Interval> safeCapacityInterval95(double margin) {
        Optional<CapacityEstimate> c = capacityAt(margin);
        if (c.isEmpty() || c.get().cappedByCliff() || preKnee.degreesOfFreedom() < 1
                || !Double.isFinite(c.get().xMax()) || !Double.isFinite(c.get().xMaxStdErr())) {
            return Optional.empty();
        }
        double half = FitStatistics.tQuantile(0.95, preKnee.degreesOfFreedom()) * c.get().xMaxStdErr();
        return Optional.of(new Interval(Math.max(0, c.get().xMax() - half), Math.max(0, c.get().xMax() + half)));
    }

    /** A closed interval [lower, upper]. */
    public record Interval(double lower, double upper) {
        public Interval {
            if (!(lower <= upper)) {
                throw new IllegalArgumentException("interval lower " + lower + " > upper " + upper);
            }
        }
    }
}
