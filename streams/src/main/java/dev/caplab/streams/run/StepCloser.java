package dev.caplab.streams.run;

import dev.caplab.streams.Micros;
import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.AlertKind;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.SloRule;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.aggregate.BufferedSample;
import dev.caplab.streams.aggregate.SeriesStats;
import dev.caplab.streams.aggregate.StepStatistics;
import dev.caplab.streams.contamination.Contamination;
import dev.caplab.streams.contamination.ContaminationCheck;
import dev.caplab.streams.fit.FitAdapter;
import dev.caplab.streams.fit.FitPoint;
import dev.caplab.streams.fit.LoadExpression;
import dev.caplab.streams.fit.LoadExpressionException;
import dev.caplab.streams.fit.ResourceCeilings;
import dev.caplab.streams.step.StepWindow;
import dev.caplab.streams.verdict.VerdictAdapter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a step: reads its samples from the buffer, emits the baseline (first step only), the step's aggregates,
 * its verdict and alerts, refits every resource over the finished uncontaminated steps, and frees the buffer.
 */
final class StepCloser {

    private static final Logger LOG = LoggerFactory.getLogger(StepCloser.class);

    private final SampleBuffer buffer;
    private final TopologySettings settings;
    private final MeasuredCeilings measured;

    StepCloser(SampleBuffer buffer, TopologySettings settings, MeasuredCeilings measured) {
        this.buffer = buffer;
        this.settings = settings;
        this.measured = measured;
    }

    List<DerivedEvent> close(RunState.Mutable run, StepWindow step, boolean first) {
        List<DerivedEvent> out = new ArrayList<>();
        if (first) {
            closeBaseline(run, step.startMicros(), out);
        }
        List<BufferedSample> samples = buffer.take(run.runId, step.startMicros(), step.endMicros());
        List<SeriesStats> stats = StepStatistics.of(samples, step.steadyFromMicros(), settings);
        Contamination contamination = ContaminationCheck.check(samples, step.steadyFromMicros(), settings);
        Double x = x(run, step);
        for (SeriesStats s : stats) {
            out.add(new DerivedEvent.Aggregate(aggregate(run, step.index(), step.load(), x, s, step.startMicros(),
                    step.endMicros(), contamination.contaminated(), 1)));
        }
        StepVerdict verdict = VerdictAdapter.verdict(run.runId, step.index(), step.load(), x, stats, rules(run),
                contamination, bottleneck(run, stats));
        out.add(new DerivedEvent.Verdict(verdict));
        if (!verdict.getPassed()) {
            out.add(alert(run, step, AlertKind.STEP_FAILED, "step " + step.index() + " failed: " + failedRules(verdict)));
        }
        if (x != null && !contamination.contaminated()) {
            addFitPoints(run, step, x, stats, out);
        }
        if (contamination.contaminated()) {
            out.add(alert(run, step, AlertKind.STEP_CONTAMINATED, "step " + step.index() + " contaminated, left out "
                    + "of fits: " + contamination.reason().orElseThrow()));
        } else if (x != null) {
            out.addAll(refit(run, step));
        }
        return out;
    }

    /** Aggregates of every sample still buffered for the run (gaps, after the last step, later than grace). */
    List<DerivedEvent> flushUnassigned(RunState.Mutable run) {
        List<BufferedSample> samples = buffer.all(run.runId);
        run.unassignedDirty = false;
        if (samples.isEmpty()) {
            return List.of();
        }
        run.unassignedVersion++;
        long from = samples.stream().mapToLong(BufferedSample::timestampMicros).min().orElseThrow();
        long to = samples.stream().mapToLong(BufferedSample::timestampMicros).max().orElseThrow() + 1;
        List<DerivedEvent> out = new ArrayList<>();
        for (SeriesStats s : StepStatistics.of(samples, 0, settings)) {
            out.add(new DerivedEvent.Aggregate(aggregate(run, StepWindow.UNASSIGNED_INDEX, Map.of(), null, s, from, to,
                    false, run.unassignedVersion)));
        }
        return out;
    }

    private void closeBaseline(RunState.Mutable run, long firstStepStart, List<DerivedEvent> out) {
        List<BufferedSample> samples = buffer.take(run.runId, Long.MIN_VALUE, firstStepStart);
        if (samples.isEmpty()) {
            return;
        }
        long from = samples.getFirst().timestampMicros();
        int max = settings.limits().maxBaselineSeries();
        for (SeriesStats s : StepStatistics.of(samples, 0, settings)) {
            String key = s.source() + '|' + s.metric();
            if (Double.isFinite(s.sustained()) && (run.baseline.size() < max || run.baseline.containsKey(key))) {
                run.baseline.put(key, s.sustained());
            } else if (Double.isFinite(s.sustained()) && run.firstTimeReached(RunState.Limit.BASELINE_SERIES)) {
                out.add(RunAlerts.limit(run.runId, Micros.toInstant(firstStepStart), "more than " + max
                        + " baseline series; the others get no baseline delta"));
            }
            out.add(new DerivedEvent.Aggregate(aggregate(run, StepWindow.BASELINE_INDEX, Map.of(), null, s, from,
                    firstStepStart, false, 1)));
        }
    }

    private StepAggregate aggregate(RunState.Mutable run, int index, Map<String, Double> load, Double x, SeriesStats s,
            long from, long to, boolean contaminated, long version) {
        Double base = index >= 0 ? run.baseline.get(s.source() + '|' + s.metric()) : null;
        return StepAggregate.newBuilder().setRunId(run.runId).setStepIndex(index).setLoad(load).setX(x)
                .setSource(s.source()).setMetric(s.metric()).setKind(s.kind()).setCount(s.count())
                .setWarmupCount(s.warmupCount()).setSum(s.sum()).setMin(s.min()).setMax(s.max()).setMean(s.mean())
                .setSustained(s.sustained()).setPeak(s.peak()).setQuantiles(new TreeMap<>(s.quantiles()))
                .setRatePerSecond(s.ratePerSecond())
                .setBaselineDelta(base == null || !Double.isFinite(s.sustained()) ? null : s.sustained() - base)
                .setWindowStart(Micros.toInstant(from)).setWindowEnd(Micros.toInstant(to)).setContaminated(contaminated).setVersion(version).build();
    }

    private void addFitPoints(RunState.Mutable run, StepWindow step, double x, List<SeriesStats> stats,
            List<DerivedEvent> out) {
        int max = settings.limits().maxFitSeries();
        java.util.Set<String> fitted = new java.util.HashSet<>();
        run.fitPoints.forEach(p -> fitted.add(p.resourceKey()));
        for (SeriesStats s : stats) {
            if (settings.resourceMetrics().contains(s.metric()) && !s.outsideSut() && Double.isFinite(s.sustained())) {
                FitPoint p = new FitPoint(s.source(), s.metric(), step.index(), x, s.sustained(), s.count());
                if (fitted.size() < max || fitted.contains(p.resourceKey())) {
                    fitted.add(p.resourceKey());
                    run.fitPoints.add(p);
                } else if (run.firstTimeReached(RunState.Limit.FIT_SERIES)) {
                    out.add(RunAlerts.limit(run.runId, Micros.toInstant(step.endMicros()), "more than " + max
                            + " resource series to fit; the others are not fitted"));
                }
            }
        }
    }

    /** Refits every resource series of the run; the fit with the smallest safe capacity is the bottleneck. */
    private List<DerivedEvent> refit(RunState.Mutable run, StepWindow step) {
        Map<String, List<FitPoint>> byResource = new TreeMap<>();
        run.fitPoints.forEach(p -> byResource.computeIfAbsent(p.resourceKey(), k -> new ArrayList<>()).add(p));
        List<CapacityFit> fits = new ArrayList<>();
        String expression = run.started == null ? "load" : run.started.getLoadExpression().toString();
        for (List<FitPoint> points : byResource.values()) {
            // hook (issue 16): the declared environment with an iperf3-measured egress where none was declared
            OptionalDouble ceiling = ResourceCeilings.of(points.getFirst().metric(), measured.environment(run));
            FitAdapter.fit(run.runId, points, expression, ceiling, settings.fitMargin(), step.endMicros(),
                    run.closedSteps + 1L).ifPresent(fits::add);
        }
        Optional<CapacityFit> bottleneck = fits.stream().filter(f -> f.getSafeCapacityX() != null)
                .min(Comparator.comparingDouble(CapacityFit::getSafeCapacityX));
        bottleneck.ifPresent(f -> f.setBottleneck(true));
        List<DerivedEvent> out = new ArrayList<>();
        for (CapacityFit f : fits) {
            out.add(new DerivedEvent.Fit(f));
            String key = f.getSource() + "|" + f.getMetric();
            if (f.getCliff() && run.cliffs.add(key)) {
                out.add(alert(run, step, AlertKind.CLIFF_DETECTED, String.format(Locale.ROOT,
                        "cliff in %s of %s at step %s (%d steps fitted)", f.getMetric(), f.getSource(),
                        f.getCliffStepIndex(), f.getStepsUsed())));
            }
        }
        return out;
    }

    /** The resource closest to its ceiling in this step, when above the planning margin. */
    private String bottleneck(RunState.Mutable run, List<SeriesStats> stats) {
        dev.caplab.schema.event.Environment env = measured.environment(run); // hook (issue 16)
        if (env == null) {
            return null;
        }
        String best = null;
        double bestUse = settings.fitMargin();
        for (SeriesStats s : stats) {
            OptionalDouble c = ResourceCeilings.of(s.metric(), env);
            if (!s.isGroup() && !s.outsideSut() && c.isPresent() && s.sustained() / c.getAsDouble() >= bestUse) {
                bestUse = s.sustained() / c.getAsDouble();
                best = s.metric() + "@" + s.source();
            }
        }
        return best;
    }

    private Double x(RunState.Mutable run, StepWindow step) {
        String expression = run.started == null ? "load" : run.started.getLoadExpression().toString();
        try {
            return LoadExpression.evaluate(expression, step.load());
        } catch (LoadExpressionException e) {
            LOG.warn("run {} step {}: no x, the step is left out of fits: {}", run.runId, step.index(), e.getMessage());
            return null;
        }
    }

    private static List<SloRule> rules(RunState.Mutable run) {
        return run.started == null ? List.of() : run.started.getSloRules();
    }

    private static String failedRules(StepVerdict v) {
        return String.join("; ", v.getOutcomes().stream().filter(o -> !o.getPassed())
                .map(o -> o.getRule().getName() + (o.getReason() == null ? "" : " (" + o.getReason() + ")")).toList());
    }

    private static DerivedEvent alert(RunState.Mutable run, StepWindow step, AlertKind kind, String message) {
        return new DerivedEvent.Raised(Alert.newBuilder().setRunId(run.runId).setAt(Micros.toInstant(step.endMicros())).setKind(kind)
                .setStepIndex(step.index()).setMessage(message).build());
    }
}
