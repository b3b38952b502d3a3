package dev.caplab.analysis.conclusion;

import dev.caplab.analysis.Finite;
import dev.caplab.analysis.ResourceFit;
import dev.caplab.analysis.capacity.CapacityModel;
import dev.caplab.analysis.capacity.CapacityPlan;
import dev.caplab.analysis.fit.LinearFit;
import dev.caplab.schema.event.ResourceEstimate;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * What a run says about one resource's capacity, the schema's {@link ResourceEstimate}: the pre-knee line
 * y = base + slope·x with its coefficient covariance (so a plan can re-derive x_max at any margin, with its
 * uncertainty), the x range it was fitted on, the node's ceiling C (null when unknown), the knee (first breakpoint)
 * and whether a cliff was seen, with the last stable x before it. {@link #of} makes and checks one; the run
 * conclusion gives it its safe capacity at the run's margin ({@link #atMargin}) and its source's role.
 */
public final class ResourceEstimates {

    private ResourceEstimates() {
    }

    /**
     * The estimate of one fitted resource: the fit's pre-knee line over its first {@code preKneeSteps} distinct
     * loads ({@code sortedXs}), its knee, and its cliff (at step {@code cliffStepIndex} when known).
     */
    public static ResourceEstimate of(String source, String metric, ResourceFit fit, double[] sortedXs,
            OptionalDouble ceiling, OptionalInt cliffStepIndex) {
        int lastPreKnee = Math.min(fit.preKneeSteps(), sortedXs.length) - 1;
        boolean cliff = fit.cliff().cliff();
        return of(source, metric, fit.preKnee(), sortedXs[0], sortedXs[Math.max(0, lastPreKnee)], ceiling,
                fit.breakpoints().isEmpty() ? OptionalDouble.empty()
                        : OptionalDouble.of(fit.breakpoints().getFirst().getX()),
                cliff, cliff ? cliffStepIndex : OptionalInt.empty(),
                cliff ? OptionalDouble.of(fit.cliff().lastStableX()) : OptionalDouble.empty());
    }

    /**
     * An estimate without its safe capacity (that is the conclusion's, at its margin) or role.
     *
     * @throws IllegalArgumentException when {@code fromX} exceeds {@code toX}, or a cliff has no last stable x
     */
    public static ResourceEstimate of(String source, String metric, LinearFit preKnee, double fromX, double toX,
            OptionalDouble ceiling, OptionalDouble kneeX, boolean cliff, OptionalInt cliffStepIndex,
            OptionalDouble lastStableX) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(metric, "metric");
        if (!(fromX <= toX)) {
            throw new IllegalArgumentException(metric + "@" + source + ": fromX " + fromX + " > toX " + toX);
        }
        if (cliff && lastStableX.isEmpty()) {
            throw new IllegalArgumentException(metric + "@" + source + ": a cliff needs the last stable x before it");
        }
        return ResourceEstimate.newBuilder()
                .setSource(source).setMetric(metric)
                .setIntercept(preKnee.base()).setSlope(preKnee.slope())
                .setInterceptVariance(Finite.orNull(preKnee.baseVariance()))
                .setSlopeVariance(Finite.orNull(preKnee.slopeVariance()))
                .setCovariance(Finite.orNull(preKnee.covariance()))
                .setResidualStdErr(Finite.orNull(preKnee.residualStdErr()))
                .setDegreesOfFreedom(preKnee.degreesOfFreedom()).setPreKneeSteps(preKnee.stepCount())
                .setRSquared(Finite.orNull(preKnee.rSquared()))
                .setFromX(fromX).setToX(toX)
                .setCeiling(Finite.orNull(ceiling))
                .setKneeX(Finite.orNull(kneeX))
                .setCliff(cliff)
                .setCliffStepIndex(cliffStepIndex.isPresent() ? cliffStepIndex.getAsInt() : null)
                .setLastStableX(Finite.orNull(lastStableX))
                .build();
    }

    /** The estimate's pre-knee line, its unknown figures NaN. */
    public static LinearFit preKnee(ResourceEstimate e) {
        return LinearFit.stored(e.getIntercept(), e.getSlope(), e.getInterceptVariance(), e.getSlopeVariance(),
                e.getCovariance(), e.getResidualStdErr(), e.getDegreesOfFreedom(), e.getPreKneeSteps(),
                e.getRSquared());
    }

    /** The resource placed at {@code margin} ({@link CapacityPlan#place}); empty without a ceiling. */
    public static Optional<CapacityPlan.Placed> placed(ResourceEstimate e, double margin) {
        return CapacityPlan.place(e.getSource(), e.getMetric(), preKnee(e), e.getFromX(),
                Finite.optional(e.getCeiling()), Finite.optional(e.getLastStableX()), margin);
    }

    /**
     * A copy of {@code e} with its safe capacity at {@code margin}: x_max with its SE and 95 % interval, or null
     * without a ceiling or when the resource does not grow with load, and whether a cliff capped it.
     */
    public static ResourceEstimate atMargin(ResourceEstimate e, double margin) {
        Optional<CapacityPlan.Placed> placed = placed(e, margin);
        Optional<CapacityModel.Interval> interval = placed.flatMap(CapacityPlan.Placed::safeInterval95);
        return ResourceEstimate.newBuilder(e)
                .setSafeCapacityX(placed.map(p -> Finite.orNull(p.capacity().safeX())).orElse(null))
                .setSafeCapacityStdErr(placed.map(p -> Finite.orNull(p.capacity().xMaxStdErr())).orElse(null))
                .setSafeCapacityLower95(interval.map(CapacityModel.Interval::lower).orElse(null))
                .setSafeCapacityUpper95(interval.map(CapacityModel.Interval::upper).orElse(null))
                .setCappedByCliff(placed.map(p -> p.capacity().cappedByCliff()).orElse(false))
                .build();
    }
}
