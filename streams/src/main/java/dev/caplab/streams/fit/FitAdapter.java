package dev.caplab.streams.fit;

import dev.caplab.analysis.Finite;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.Micros;
import dev.caplab.analysis.CapacityAnalysis;
import dev.caplab.analysis.FitFailedException;
import dev.caplab.analysis.FitOptions;
import dev.caplab.analysis.InsufficientDataException;
import dev.caplab.analysis.ResourceFit;
import dev.caplab.analysis.conclusion.ResourceEstimates;
import dev.caplab.analysis.fit.Pieces;
import dev.caplab.analysis.fit.StepPoint;
import dev.caplab.analysis.throughput.ThroughputLimits;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.schema.event.RunThroughputLimit;
import dev.caplab.schema.event.Segment;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The one place the topology calls the analysis library: finished-step points of one resource in, a fit out. */
public final class FitAdapter {

    /** Fewer finished steps than this give no fit (the linear model needs 3). */
    public static final int MIN_STEPS = 3;
    private static final Logger LOG = LoggerFactory.getLogger(FitAdapter.class);

    private FitAdapter() {
    }

    /**
     * A resource's fit record and its capacity estimate for the run conclusion, from the same analysis call; for the
     * request rate's fit also its throughput limit, when it shows one ({@link ThroughputLimits#detect}).
     */
    public record Fitted(CapacityFit record, ResourceEstimate estimate, Optional<RunThroughputLimit> throughputLimit) {
    }

    /**
     * Fits one resource series; empty with fewer than {@link #MIN_STEPS} steps or when the analysis finds the data
     * insufficient. {@code fittedAtMicros} is the closing step's end, so a replay reproduces the record exactly.
     */
    public static Optional<CapacityFit> fit(String runId, List<FitPoint> points, String loadExpression,
            OptionalDouble ceiling, double margin, long fittedAtMicros, long version) {
        return fitWithEstimate(runId, points, loadExpression, ceiling, margin, fittedAtMicros, version)
                .map(Fitted::record);
    }

    /** {@link #fit}, with the resource's capacity estimate (pre-knee line, ceiling, knee, cliff). */
    public static Optional<Fitted> fitWithEstimate(String runId, List<FitPoint> points, String loadExpression,
            OptionalDouble ceiling, double margin, long fittedAtMicros, long version) {
        if (points.size() < MIN_STEPS) {
            return Optional.empty();
        }
        List<FitPoint> byX = points.stream().sorted(Comparator.comparingDouble(FitPoint::x)
                .thenComparingInt(FitPoint::stepIndex)).toList();
        FitPoint first = byX.getFirst();
        List<StepPoint> stepPoints = byX.stream()
                .map(p -> new StepPoint(p.x(), p.y(), Math.max(1, p.count()), OptionalInt.of(p.stepIndex())))
                .toList();
        FitOptions options = FitOptions.defaults(first.metric()).withMargin(margin);
        if (ceiling.isPresent()) {
            options = options.withCeiling(ceiling.getAsDouble());
        }
        ResourceFit fit;
        try {
            fit = CapacityAnalysis.fitResource(stepPoints, options);
        } catch (InsufficientDataException e) {
            // Too few distinct load levels yet (e.g. three steps at one x): the next step may make it fittable.
            return Optional.empty();
        } catch (FitFailedException | IllegalArgumentException | ArithmeticException e) {
            // One resource the analysis cannot fit (e.g. an exactly linear counter rate, whose zero residual
            // variance gives a NaN Davies p-value) must not stop the run's other fits: logged with context.
            LOG.warn("run {}: no fit of {}/{} over {} steps: {}", runId, first.source(), first.metric(),
                    points.size(), e.toString());
            return Optional.empty();
        }
        Integer cliffStep = fit.cliff().cliff() && fit.cliff().cliffPosition() >= 0
                && fit.cliff().cliffPosition() < byX.size() ? byX.get(fit.cliff().cliffPosition()).stepIndex() : null;
        Double safeX = fit.capacity().map(c -> c.safeX()).filter(Double::isFinite).orElse(null);
        double p = fit.breakpointExistencePValue();
        ResourceEstimate estimate = ResourceEstimates.of(first.source(), first.metric(), fit,
                byX.stream().mapToDouble(FitPoint::x).distinct().sorted().toArray(), ceiling,
                cliffStep == null ? OptionalInt.empty() : OptionalInt.of(cliffStep));
        Optional<RunThroughputLimit> throughputLimit = MetricNames.throughputFit(first.source(), first.metric())
                ? ThroughputLimits.detect(fit.segments(), fit.breakpoints(), p, fit.stepCount(),
                        Micros.toInstant(fittedAtMicros))
                : Optional.empty();
        return Optional.of(new Fitted(CapacityFit.newBuilder()
                .setRunId(runId)
                .setSource(first.source())
                .setMetric(first.metric())
                .setModel(fit.chosen().modelName())
                .setModelVersion(fit.modelName() + "/" + fit.modelVersion() + ";" + fit.chosen().modelVersion())
                .setLoadExpression(loadExpression)
                .setStepsUsed(fit.stepCount())
                .setSegments(reportedSegments(fit, byX))
                .setBreakpoints(fit.breakpoints())
                .setBreakpointPValue(Finite.orNull(p))
                .setRSquared(Finite.orNull(fit.chosen().rSquared()))
                .setCliff(fit.cliff().cliff())
                .setCliffStepIndex(cliffStep)
                .setCapacity(ceiling.isPresent() ? ceiling.getAsDouble() : null)
                .setMargin(margin)
                .setSafeCapacityX(safeX)
                .setBottleneck(false)
                .setFittedAt(Micros.toInstant(fittedAtMicros))
                .setVersion(version)
                .build(), estimate, throughputLimit));
    }

    /**
     * The chosen model's pieces; but when a cliff shows at the last steps and the segmented model cannot resolve it
     * (too few steps past the knee, so BIC keeps one line), the pre-knee line over the pre-knee steps — a line fitted
     * through the cliff would average it into the slope and understate the cost per unit of load below the knee.
     */
    static List<Segment> reportedSegments(ResourceFit fit, List<FitPoint> byX) {
        if (fit.cliff().cliff() && fit.breakpoints().isEmpty() && fit.preKneeSteps() >= 2) {
            double[] xs = byX.stream().mapToDouble(FitPoint::x).distinct().sorted().toArray();
            return List.of(Pieces.line(fit.preKnee(), xs[0], xs[Math.min(fit.preKneeSteps(), xs.length) - 1]));
        }
        return fit.segments();
    }
}
