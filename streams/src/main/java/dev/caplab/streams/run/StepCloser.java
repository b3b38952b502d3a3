package dev.caplab.streams.run;

import dev.caplab.analysis.capacity.EffectiveEgress;
import dev.caplab.analysis.conclusion.Conclusions;
import dev.caplab.analysis.conclusion.ResourceUse;
import dev.caplab.analysis.conclusion.RunConclusion;
import dev.caplab.analysis.conclusion.StepJudgement;
import dev.caplab.analysis.conclusion.StepStatus;
import dev.caplab.analysis.throughput.TrafficMetrics;
import dev.caplab.streams.Micros;
import dev.caplab.streams.conclusion.ConclusionAdapter;
import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.AlertKind;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.aggregate.Partial;
import dev.caplab.streams.aggregate.Priors;
import dev.caplab.streams.aggregate.SeriesStats;
import dev.caplab.streams.aggregate.StepStatistics;
import dev.caplab.streams.aggregate.StepThroughput;
import dev.caplab.streams.aggregate.ToolTotalsMean;
import dev.caplab.streams.aggregate.TimedValue;
import dev.caplab.streams.contamination.Contamination;
import dev.caplab.streams.contamination.ContaminationCheck;
import dev.caplab.streams.fit.FitAdapter;
import dev.caplab.streams.fit.FitPoint;
import dev.caplab.streams.fit.FittedThroughputLimit;
import dev.caplab.streams.fit.LoadExpression;
import dev.caplab.streams.fit.LoadExpressionException;
import dev.caplab.streams.fit.SourceFacts;
import dev.caplab.streams.step.StepWindow;
import dev.caplab.streams.verdict.JudgingRules;
import dev.caplab.streams.verdict.VerdictAdapter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Computes a step from the run's per-second partials: its aggregates, verdict and alerts, and its fit points; the
 * baseline before the first step; the unassigned seconds; the run's fits; and the run conclusion. Nothing is consumed: partials stay
 * until the run expires, so the same step can be computed again (a higher revision) when a late sample or a later
 * lifecycle event changes it, and the result depends only on which partials and lifecycle the run has.
 */
final class StepCloser {

    private static final Logger LOG = LoggerFactory.getLogger(StepCloser.class);

    private final PartialStore partials;
    private final TopologySettings settings;
    private final MeasuredCeilings measured;

    StepCloser(PartialStore partials, TopologySettings settings, MeasuredCeilings measured) {
        this.partials = partials;
        this.settings = settings;
        this.measured = measured;
    }

    /**
     * Emits the step's aggregates, verdict and alerts at its next revision and replaces its fit points; when they
     * changed the caller refits ({@link #refit}), once after closing or amending steps.
     */
    List<DerivedEvent> close(RunState.Mutable run, StepWindow step) {
        List<DerivedEvent> out = new ArrayList<>();
        StepMark previous = run.marks.get(step.index());
        long revision = previous == null ? 1 : previous.revision() + 1;
        long late = previous == null ? 0 : previous.lateCount();
        run.dirtySteps.remove(step.index());
        List<Partial> inStep = partials.range(run.runId, step.startMicros(), step.endMicros());
        Priors priors = partials.priors(run.runId, step.startMicros(),
                seriesOf(inStep, p -> p.kind() == SampleKind.COUNTER),
                seriesOf(inStep, p -> ToolTotalsMean.last(p).isPresent()), StepStatistics.COUNTER_LOOKBACK_MICROS);
        List<SeriesStats> stats = new ArrayList<>(StepStatistics.of(inStep, priors.counters(), step.steadyFromMicros(),
                settings));
        stats.addAll(StepThroughput.of(inStep, priors, step.startMicros(), step.endMicros(), step.steadyFromMicros(),
                settings));
        Contamination contamination = ContaminationCheck.check(inStep, step.steadyFromMicros(), settings);
        SourceFacts facts = SourceFacts.of(inStep);
        Double x = x(run, step);
        for (SeriesStats s : stats) {
            out.add(new DerivedEvent.Aggregate(aggregate(run, step.index(), step.load(), x, s, step.startMicros(),
                    step.endMicros(), contamination.contaminated(), revision, late)));
        }
        Optional<ResourceUse> overMargin = Conclusions.stepBottleneck(uses(run, stats, facts), settings.fitMargin());
        JudgingRules judging = rules(run);
        StepVerdict verdict = VerdictAdapter.verdict(run.runId, step.index(), step.load(), x, stats, judging.rules(),
                contamination, overMargin.map(u -> u.metric() + "@" + u.source()).orElse(null));
        verdict.setVersion(revision);
        verdict.setLateCount(late);
        verdict.setJudged(judging.judging());
        verdict.setWindowStart(Micros.toInstant(step.startMicros()));
        verdict.setWindowEnd(step.isOpen() ? null : Micros.toInstant(step.endMicros()));
        verdict.setWarmupMicros(step.warmupMicros());
        out.add(new DerivedEvent.Verdict(verdict));
        run.marks.put(step.index(), new StepMark(step, revision, late, new StepJudgement(step.index(),
                x == null ? OptionalDouble.empty() : OptionalDouble.of(x),
                StepStatus.of(false, judging.judging(), verdict.getPassed()),
                contamination.contaminated(), overMargin, loadGeneratorCpu(stats))));
        run.concludeDue = true;
        if (!verdict.getPassed() && !contamination.contaminated()) {
            out.add(alert(run, step, AlertKind.STEP_FAILED, "step " + step.index() + " failed: " + failedRules(verdict)));
        }
        List<FitPoint> before = run.fitPoints.stream().filter(p -> p.stepIndex() == step.index()).toList();
        run.fitPoints.removeIf(p -> p.stepIndex() == step.index());
        if (x != null && !contamination.contaminated()) {
            addFitPoints(run, step, x, stats, facts, out);
        }
        run.fitPointsChanged |= !before.equals(run.fitPoints.stream().filter(p -> p.stepIndex() == step.index())
                .toList());
        if (contamination.contaminated()) {
            // A contaminated step says nothing about the system, so it raises no STEP_FAILED (a stepper stops on
            // that) even when its rules failed: the run conclusion skips it too.
            out.add(alert(run, step, AlertKind.STEP_CONTAMINATED, "step " + step.index() + " contaminated, left out "
                    + "of fits and of the max stable load" + (verdict.getPassed() ? "" : " (its rules failed: "
                    + failedRules(verdict) + ")") + ": " + contamination.reason().orElseThrow()));
        }
        return out;
    }

    /**
     * Steps that left the timeline (inferred steps replaced by fewer declared ones, whatever came first): their
     * aggregates are emptied and their verdicts withdrawn at the next revision and their fit points dropped (the
     * caller refits), so neither readers nor fits keep a step the run no longer has.
     */
    List<DerivedEvent> dropVanished(RunState.Mutable run, List<StepWindow> timeline) {
        List<DerivedEvent> out = new ArrayList<>();
        for (StepMark mark : List.copyOf(run.marks.tailMap(timeline.size()).values())) {
            if (mark.vanished()) {
                continue;
            }
            StepMark gone = mark.vanishing();
            int index = mark.window().index();
            run.marks.put(index, gone);
            run.dirtySteps.remove(index);
            out.add(emptied(run, index, gone.revision(), mark.window().startMicros()));
            out.add(new DerivedEvent.Verdict(withdrawn(run.runId, index, gone.revision())));
            run.fitPointsChanged |= run.fitPoints.removeIf(p -> p.stepIndex() == index);
            run.concludeDue = true;
        }
        return out;
    }

    /** Supersedes the verdict of a step that left the timeline; readers skip it ({@code StepVerdictRepository}). */
    private static Set<String> seriesOf(List<Partial> partials, Predicate<Partial> which) {
        return partials.stream().filter(which).map(Partial::seriesKey).collect(Collectors.toSet());
    }

    private static StepVerdict withdrawn(String runId, int index, long revision) {
        return StepVerdict.newBuilder().setRunId(runId).setStepIndex(index).setLoad(Map.of()).setX(null)
                .setPassed(false).setOutcomes(List.of()).setContaminated(false).setContaminationReason(null)
                .setBottleneck(null).setVersion(revision).setLateCount(0).setWithdrawn(true).build();
    }

    /** Aggregates of every second of the run outside the baseline and every step (gaps, after the last step). */
    List<DerivedEvent> flushUnassigned(RunState.Mutable run, List<StepWindow> timeline) {
        run.unassignedDirty = false;
        long firstStart = timeline.isEmpty() ? Long.MIN_VALUE : timeline.getFirst().startMicros();
        List<Partial> outside = outsideSteps(run.runId, timeline, firstStart);
        if (outside.isEmpty()) {
            return run.unassignedVersion == 0 ? List.of() : List.of(emptied(run, StepWindow.UNASSIGNED_INDEX,
                    ++run.unassignedVersion, firstStart == Long.MIN_VALUE ? 0 : firstStart));
        }
        run.unassignedVersion++;
        long from = outside.stream().mapToLong(Partial::bucketMicros).min().orElseThrow();
        long to = outside.stream().mapToLong(Partial::bucketMicros).max().orElseThrow() + settings.bucketMicros();
        List<DerivedEvent> out = new ArrayList<>();
        for (SeriesStats s : StepStatistics.of(outside, 0, settings)) {
            out.add(new DerivedEvent.Aggregate(aggregate(run, StepWindow.UNASSIGNED_INDEX, Map.of(), null, s, from, to,
                    false, run.unassignedVersion, 0)));
        }
        return out;
    }

    /**
     * The run's partials from {@code fromMicros} on that no step of {@code timeline} contains, in key order: read
     * as ranges over the gaps between steps and after the last, so closing a long run reads its unassigned seconds,
     * not every partial it has.
     */
    private List<Partial> outsideSteps(String runId, List<StepWindow> timeline, long fromMicros) {
        List<StepWindow> byStart = timeline.stream().sorted(Comparator.comparingLong(StepWindow::startMicros)).toList();
        List<Partial> out = new ArrayList<>();
        long cursor = fromMicros;
        for (StepWindow w : byStart) {
            if (w.startMicros() > cursor) {
                out.addAll(partials.range(runId, cursor, w.startMicros()));
            }
            cursor = Math.max(cursor, w.endMicros());
        }
        if (cursor < StepWindow.OPEN) {
            out.addAll(partials.range(runId, cursor, StepWindow.OPEN));
        }
        return out;
    }

    /**
     * The pre-test baseline: aggregates of the seconds before the first step, and each series' sustained value kept
     * for the steps' baseline deltas. Returns true in {@code changed[0]} when those values differ from before.
     */
    List<DerivedEvent> baseline(RunState.Mutable run, long firstStepStart, boolean[] changed) {
        run.baselineDirty = false;
        List<Partial> before = partials.range(run.runId, Long.MIN_VALUE, firstStepStart);
        List<DerivedEvent> out = new ArrayList<>();
        Map<String, Double> values = new TreeMap<>();
        if (!before.isEmpty()) {
            run.baselineRevision++;
            long from = before.stream().mapToLong(Partial::bucketMicros).min().orElseThrow();
            int max = settings.limits().maxBaselineSeries();
            for (SeriesStats s : StepStatistics.of(before, 0, settings)) {
                String key = s.source() + '|' + s.metric();
                if (Double.isFinite(s.sustained()) && values.size() < max) {
                    values.put(key, s.sustained());
                } else if (Double.isFinite(s.sustained()) && run.firstTimeReached(RunState.Limit.BASELINE_SERIES)) {
                    out.add(RunAlerts.limit(run.runId, Micros.toInstant(firstStepStart), "more than " + max
                            + " baseline series; the others get no baseline delta"));
                }
                out.add(new DerivedEvent.Aggregate(aggregate(run, StepWindow.BASELINE_INDEX, Map.of(), null, s, from,
                        firstStepStart, false, run.baselineRevision, 0)));
            }
        } else if (run.baselineRevision > 0) {
            // The first step now starts at or before the earliest sample (its start arrived late, or earlier load
            // levels did): the baseline rows emitted before describe nothing any more.
            out.add(emptied(run, StepWindow.BASELINE_INDEX, ++run.baselineRevision, firstStepStart));
        }
        changed[0] = !values.equals(run.baseline);
        run.baseline.clear();
        run.baseline.putAll(values);
        return out;
    }

    /**
     * The row that says a window emitted before (a step that vanished, the baseline, the unassigned seconds) holds
     * no samples now ({@link MetricNames#EMPTY_WINDOW}), at the window's next revision. Readers keep a window's rows of its newest revision only and drop this one
     * ({@code StepAggregateRepository}), so the window's earlier rows disappear from every answer.
     */
    private static DerivedEvent emptied(RunState.Mutable run, int index, long revision, long atMicros) {
        return new DerivedEvent.Aggregate(StepAggregate.newBuilder().setRunId(run.runId).setStepIndex(index)
                .setLoad(Map.of()).setX(null).setSource(MetricNames.DERIVED_SOURCE).setMetric(MetricNames.EMPTY_WINDOW).setKind(SampleKind.GAUGE).setCount(0)
                .setWarmupCount(0).setSum(0).setMin(0).setMax(0).setMean(0).setSustained(0).setPeak(0)
                .setQuantiles(Map.of()).setRatePerSecond(null).setBaselineDelta(null)
                .setWindowStart(Micros.toInstant(atMicros)).setWindowEnd(Micros.toInstant(atMicros))
                .setContaminated(false).setVersion(revision).setLateCount(0).build());
    }

    private StepAggregate aggregate(RunState.Mutable run, int index, Map<String, Double> load, Double x, SeriesStats s,
            long from, long to, boolean contaminated, long version, long lateCount) {
        Double base = index >= 0 ? run.baseline.get(s.source() + '|' + s.metric()) : null;
        return StepAggregate.newBuilder().setRunId(run.runId).setStepIndex(index).setLoad(load).setX(x)
                .setSource(s.source()).setMetric(s.metric()).setKind(s.kind()).setCount(s.count())
                .setWarmupCount(s.warmupCount()).setSum(s.sum()).setMin(s.min()).setMax(s.max()).setMean(s.mean())
                .setSustained(s.sustained()).setPeak(s.peak()).setQuantiles(new TreeMap<>(s.quantiles()))
                .setRatePerSecond(s.ratePerSecond())
                .setBaselineDelta(base == null || !Double.isFinite(s.sustained()) ? null : s.sustained() - base)
                .setWindowStart(Micros.toInstant(from)).setWindowEnd(Micros.toInstant(to)).setContaminated(contaminated).setVersion(version)
                .setLateCount(lateCount).build();
    }

    private void addFitPoints(RunState.Mutable run, StepWindow step, double x, List<SeriesStats> stats,
            SourceFacts facts, List<DerivedEvent> out) {
        int max = settings.limits().maxFitSeries();
        java.util.Set<String> fitted = new java.util.HashSet<>();
        run.fitPoints.forEach(p -> fitted.add(p.resourceKey()));
        for (SeriesStats s : stats) {
            if (fittedAgainstLoad(s, facts) && Double.isFinite(s.sustained())) {
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

    /**
     * Resources of the system under test and its hosts are fitted against load (never an agent's or the load
     * generator's: {@link dev.caplab.analysis.source.SourceRole#planned}); so is the request rate, whose knee is the
     * run's throughput limit ({@link FittedThroughputLimit}, carried in the run conclusion). The conclusion and plans
     * leave the throughput fit out of the resources ({@link TrafficMetrics#throughputFit}).
     */
    private boolean fittedAgainstLoad(SeriesStats s, SourceFacts facts) {
        return settings.resourceMetrics().contains(s.metric()) && !s.outsideSut()
                && facts.role(s.source(), s.metric()).planned()
                || TrafficMetrics.throughputFit(s.source(), s.metric());
    }

    /**
     * Refits every resource series of the run at its next fit revision and keeps their capacity estimates for the run
     * conclusion, which is then due: {@link #conclude} flags the fit of the resource it names the bottleneck before
     * the fits leave (one {@link Conclusions#conclude} call, so the fits and the conclusion give one answer).
     * {@code step} is the latest closed step (its end stamps the fits and alerts; its partials give each source's role
     * and a host's own ceilings).
     */
    List<DerivedEvent> refit(RunState.Mutable run, StepWindow step) {
        if (run.fitPoints.isEmpty()) {
            return List.of();
        }
        run.fitRevision++;
        Map<String, List<FitPoint>> byResource = new TreeMap<>();
        run.fitPoints.forEach(p -> byResource.computeIfAbsent(p.resourceKey(), k -> new ArrayList<>()).add(p));
        List<CapacityFit> fits = new ArrayList<>();
        run.estimates.clear();
        run.throughputLimit = null;
        String expression = run.started == null ? "load" : run.started.getLoadExpression().toString();
        SourceFacts facts = facts(run, step);
        dev.caplab.schema.event.Environment env = run.started == null ? null : run.started.getEnvironment();
        Optional<EffectiveEgress> egress = measured.egress(run);
        for (List<FitPoint> points : byResource.values()) {
            FitPoint first = points.getFirst();
            OptionalDouble ceiling = facts.ceiling(first.source(), first.metric(), env, egress);
            FitAdapter.fitWithEstimate(run.runId, points, expression, ceiling, settings.fitMargin(), step.endMicros(),
                    run.fitRevision).ifPresent(f -> {
                        f.record().setRole(facts.role(first.source(), first.metric()).label());
                        fits.add(f.record());
                        run.estimates.add(f.estimate());
                        f.throughputLimit().ifPresent(t -> run.throughputLimit = t);
                    });
        }
        run.concludeDue = true;
        run.refitted.clear();
        run.refitted.addAll(fits);
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

    /**
     * The run conclusion at its next revision, from the closed steps' judgements and the latest refit's estimates;
     * stamped with the latest closed step's end (event time), so a replay reproduces it. Empty before a step closed.
     * The fits a refit made in this record are flagged with its bottleneck here, the one place it is decided.
     */
    Optional<DerivedEvent> conclude(RunState.Mutable run, List<StepWindow> timeline) {
        run.concludeDue = false;
        int closed = Math.min(run.closedSteps, timeline.size());
        if (closed == 0 && !(run.runClosed && timeline.isEmpty())) {
            return Optional.empty(); // a run that closed without any step still concludes: its warnings say why
        }
        run.conclusionRevision++;
        RunConclusion conclusion = Conclusions.conclude(judgements(run, closed), run.estimates,
                Optional.ofNullable(run.throughputLimit).map(FittedThroughputLimit::limit), settings.fitMargin())
                .withWarnings(RunWarnings.of(run, timeline, settings));
        conclusion.bottleneck().ifPresent(b -> run.refitted.stream().filter(f -> f.getSource().toString()
                .equals(b.source()) && f.getMetric().toString().equals(b.metric())).forEach(f -> f.setBottleneck(true)));
        run.refitted.clear();
        long concludedAt = closed > 0 ? timeline.get(closed - 1).endMicros() : run.runEndedMicros;
        SourceFacts facts = closed > 0 ? facts(run, timeline.get(closed - 1)) : SourceFacts.of(List.of());
        dev.caplab.schema.event.RunConclusion event = ConclusionAdapter.toEvent(run.runId, conclusion,
                run.runClosed, concludedAt, run.conclusionRevision,
                (source, metric) -> facts.role(source, metric).label(), Optional.ofNullable(run.throughputLimit));
        event.setRulesFrom(rules(run).origin().stored());
        event.setEgressCeiling(measured.egress(run).map(ConclusionAdapter::egressCeiling).orElse(null));
        return Optional.of(new DerivedEvent.Concluded(event));
    }

    /** The judgements of the first {@code closed} steps still on the timeline, in index order. */
    private static List<StepJudgement> judgements(RunState.Mutable run, int closed) {
        List<StepJudgement> judgements = new ArrayList<>();
        for (int i = 0; i < closed; i++) {
            StepMark mark = run.marks.get(i);
            if (mark != null && !mark.vanished() && mark.judgement() != null) {
                judgements.add(mark.judgement());
            }
        }
        return judgements;
    }

    /** Roles and own ceilings of the sources seen in {@code step} (a run's sources and hosts do not change). */
    private SourceFacts facts(RunState.Mutable run, StepWindow step) {
        return SourceFacts.of(partials.range(run.runId, step.startMicros(), step.endMicros()));
    }

    /**
     * Sustained use against its ceiling of every single series of the system under test or a host (never an agent's
     * or the generator's) whose ceiling is known.
     */
    private List<ResourceUse> uses(RunState.Mutable run, List<SeriesStats> stats, SourceFacts facts) {
        dev.caplab.schema.event.Environment env = run.started == null ? null : run.started.getEnvironment();
        Optional<EffectiveEgress> egress = measured.egress(run);
        List<ResourceUse> out = new ArrayList<>();
        for (SeriesStats s : stats) {
            OptionalDouble c = facts.ceiling(s.source(), s.metric(), env, egress);
            if (!s.isGroup() && !s.outsideSut() && facts.role(s.source(), s.metric()).planned() && c.isPresent()
                    && Double.isFinite(s.sustained())) {
                out.add(new ResourceUse(s.source(), s.metric(), s.sustained(), c.getAsDouble()));
            }
        }
        return out;
    }

    /** The load generator's sustained CPU (% of its machine) in the step, when it sent it. */
    private static OptionalDouble loadGeneratorCpu(List<SeriesStats> stats) {
        return stats.stream().filter(s -> TrafficMetrics.SOURCE.equals(s.source())
                        && MetricNames.THROUGHPUT_LOADGEN_CPU_UTIL_PERCENT.equals(s.metric())
                        && Double.isFinite(s.sustained()))
                .mapToDouble(SeriesStats::sustained).findFirst();
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

    /** The run's own rules, else the configured default for its system; none means its steps are not judged. */
    private JudgingRules rules(RunState.Mutable run) {
        return JudgingRules.of(run.started, settings.defaultRules());
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
