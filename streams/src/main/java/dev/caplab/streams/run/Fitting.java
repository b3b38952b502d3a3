package dev.caplab.streams.run;

import dev.caplab.schema.event.AlertKind;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.Environment;
import dev.caplab.schema.event.RunEgressCeiling;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.Micros;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.aggregate.SeriesStats;
import dev.caplab.streams.fit.FitAdapter;
import dev.caplab.streams.fit.FitPoint;
import dev.caplab.streams.fit.SourceFacts;
import dev.caplab.streams.step.StepWindow;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;

/**
 * The fitting stage: keeps each closed step's fit points (its sustained use of every resource fitted against load),
 * and refits every resource series of the run when they changed, keeping the capacity estimates and the throughput
 * limit for the run conclusion and alerting each cliff once.
 */
final class Fitting {

    private final PartialStore partials;
    private final TopologySettings settings;
    private final MeasuredCeilings measured;

    Fitting(PartialStore partials, TopologySettings settings, MeasuredCeilings measured) {
        this.partials = partials;
        this.settings = settings;
        this.measured = measured;
    }

    /**
     * Replaces the step's fit points by those of its aggregates (none for a contaminated step or one without x) and
     * notes in {@code run.fitPointsChanged} when they differ, so the caller refits once after closing or amending.
     */
    List<DerivedEvent> takePoints(RunState.Mutable run, StepWindow step, AggregatedStep aggregated) {
        List<DerivedEvent> out = new ArrayList<>();
        List<FitPoint> before = pointsOf(run, step);
        run.fitPoints.removeIf(p -> p.stepIndex() == step.index());
        if (aggregated.x() != null && !aggregated.contaminated()) {
            addPoints(run, step, aggregated, out);
        }
        run.fitPointsChanged |= !before.equals(pointsOf(run, step));
        return out;
    }

    /** Drops the fit points of a step that left the timeline. */
    static void dropPoints(RunState.Mutable run, int stepIndex) {
        run.fitPointsChanged |= run.fitPoints.removeIf(p -> p.stepIndex() == stepIndex);
    }

    private static List<FitPoint> pointsOf(RunState.Mutable run, StepWindow step) {
        return run.fitPoints.stream().filter(p -> p.stepIndex() == step.index()).toList();
    }

    private void addPoints(RunState.Mutable run, StepWindow step, AggregatedStep aggregated, List<DerivedEvent> out) {
        int max = settings.limits().maxFitSeries();
        Set<String> fitted = new HashSet<>();
        run.fitPoints.forEach(p -> fitted.add(p.resourceKey()));
        for (SeriesStats s : aggregated.stats()) {
            if (fittedAgainstLoad(s, aggregated.facts()) && Double.isFinite(s.sustained())) {
                FitPoint p = new FitPoint(s.source(), s.metric(), step.index(), aggregated.x(), s.sustained(),
                        s.count());
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
     * run's throughput limit (analysis {@code ThroughputLimits}, carried in the run conclusion). The conclusion and
     * plans leave the throughput fit out of the resources ({@link MetricNames#throughputFit}).
     */
    private boolean fittedAgainstLoad(SeriesStats s, SourceFacts facts) {
        return settings.resourceMetrics().contains(s.metric()) && !s.outsideSut()
                && facts.role(s.source(), s.metric()).planned()
                || MetricNames.throughputFit(s.source(), s.metric());
    }

    /**
     * Refits every resource series of the run at its next fit revision and keeps their capacity estimates for the run
     * conclusion, which is then due: {@link Concluding#conclude} flags the fit of the resource it names the bottleneck
     * before the fits leave (one {@code Conclusions.conclude} call, so the fits and the conclusion give one answer).
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
        String expression = StepAggregation.loadExpression(run);
        SourceFacts facts = partials.sourceFacts(run.runId, step);
        Environment env = run.started == null ? null : run.started.getEnvironment();
        Optional<RunEgressCeiling> egress = measured.egress(run);
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
                out.add(RunAlerts.step(run, step, AlertKind.CLIFF_DETECTED, String.format(Locale.ROOT,
                        "cliff in %s of %s at step %s (%d steps fitted)", f.getMetric(), f.getSource(),
                        f.getCliffStepIndex(), f.getStepsUsed())));
            }
        }
        return out;
    }
}
