package dev.caplab.query.throughput;

import dev.caplab.analysis.throughput.GeneratorLimit;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunThroughputLimit;
import dev.caplab.store.access.DeletedRunRepository;
import dev.caplab.store.access.RunConclusionRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.access.StepAggregateRepository;
import dev.caplab.store.access.RunSteps;
import dev.caplab.store.row.RunRow;
import dev.caplab.store.row.RunStep;
import dev.caplab.query.format.Figures;
import dev.caplab.analysis.throughput.TrafficMetrics;
import dev.caplab.query.runs.RunNotFoundException;
import dev.caplab.query.steps.AggregateView;
import dev.caplab.schema.event.SloRule;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.vocabulary.MetricNames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * Throughput and latency against load for a run, from what streams derived and stored: the per-step
 * {@code caplab:throughput} aggregates, and the throughput limit and generator flag as the run conclusion carries
 * them (decided once, in streams; read here, never re-decided). The one call the run page, the API and reports make:
 * {@link #of(String)}.
 */
@Service
public class ThroughputService {

    private static final String LOCUST = "locust";

    private final RunRepository runs;
    private final DeletedRunRepository deletions;
    private final RunSteps steps;
    private final StepAggregateRepository aggregates;
    private final RunConclusionRepository conclusions;

    ThroughputService(RunRepository runs, DeletedRunRepository deletions, RunSteps steps,
            StepAggregateRepository aggregates, RunConclusionRepository conclusions) {
        this.runs = runs;
        this.deletions = deletions;
        this.steps = steps;
        this.aggregates = aggregates;
        this.conclusions = conclusions;
    }

    /** The run's throughput, latency and throughput limit; throws {@link RunNotFoundException} for an unknown run. */
    public RunThroughput of(String runId) {
        RunRow run = runs.find(runId).orElseThrow(() -> RunNotFoundException.of(runId, deletions));
        List<ThroughputStep> perStep = perStep(runId, run.tool());
        // decided once, in streams, and stored in the run conclusion
        RunThroughputLimit limit = conclusions.latest(runId).map(RunConclusion::getThroughputLimit).orElse(null);
        return new RunThroughput(runId, run.loadExpression(), perStep, ThroughputLimitView.of(limit),
                sloLines(run.sloRules()), warnings(limit, run.loadExpression(), perStep, run.tool()));
    }

    private List<ThroughputStep> perStep(String runId, String tool) {
        Map<Integer, Map<String, StepAggregate>> byStep = new HashMap<>();
        for (StepAggregate a : aggregates.ofRun(runId, Optional.empty(), Optional.of(MetricNames.THROUGHPUT_SOURCE))) {
            if (a.getStepIndex() >= 0) {
                byStep.computeIfAbsent(a.getStepIndex(), k -> new HashMap<>()).put(a.getMetric(), a);
            }
        }
        List<ThroughputStep> out = new ArrayList<>();
        for (RunStep s : steps.ofRun(runId)) {
            Map<String, StepAggregate> m = byStep.getOrDefault(s.stepIndex(), Map.of());
            StepAggregate rate = m.get(MetricNames.THROUGHPUT_REQUESTS_PER_S);
            StepAggregate errors = m.get(MetricNames.THROUGHPUT_ERRORS_RATIO);
            StepAggregate perRequest = m.get(MetricNames.THROUGHPUT_LATENCY_MS);
            StepAggregate windows = m.get(MetricNames.THROUGHPUT_LATENCY_WINDOW_MEDIAN_MS);
            StepAggregate latency = perRequest != null ? perRequest : windows;
            StepAggregate totals = m.get(MetricNames.THROUGHPUT_LATENCY_TOTALS_MEAN_MS);
            StepAggregate mean = perRequest != null ? perRequest : totals;
            StepAggregate loadgen = m.get(MetricNames.THROUGHPUT_LOADGEN_CPU_UTIL_PERCENT);
            AggregateView percentiles = latency == null ? null : new AggregateView(latency);
            out.add(new ThroughputStep(s.stepIndex(), s.load(), s.x(),
                    rate == null ? null : finite(rate.getSustained()), rate == null ? null : rate.getCount(),
                    errors == null ? null : finite(errors.getSustained()),
                    latency == null ? null : percentiles.p50(), latency == null ? null : percentiles.p95(),
                    latency == null ? null : percentiles.p99(),
                    loadgen == null ? null : finite(loadgen.getSustained()),
                    s.passed(), combination(perRequest, windows), mean == null ? null : finite(mean.getMean()),
                    meanFrom(perRequest, totals, tool)));
        }
        return out;
    }

    /** Where the step's mean latency comes from, in words shown beside it. */
    static String meanFrom(StepAggregate perRequest, StepAggregate totals, String tool) {
        if (perRequest != null) {
            return String.format(Locale.ROOT, "exact mean of %d requests", perRequest.getCount());
        }
        if (totals != null) {
            return String.format(Locale.ROOT, "mean of %s own totals over %d requests", possessive(tool),
                    totals.getCount());
        }
        return null;
    }

    /** "Locust's" for Locust (whose totals these are in practice), else the tool's name or "the tool's". */
    private static String possessive(String tool) {
        if (tool == null || tool.isBlank()) {
            return "the tool's";
        }
        return (LOCUST.equalsIgnoreCase(tool) ? "Locust" : tool) + "'s";
    }

    /** How the step's percentiles were obtained, in words shown beside them. */
    static String combination(StepAggregate perRequest, StepAggregate windows) {
        if (perRequest != null) {
            return String.format(Locale.ROOT, "merged sketch of %d requests (±1 %%)", perRequest.getCount());
        }
        if (windows != null) {
            return String.format(Locale.ROOT, "median of the tool's %d window percentiles", windows.getCount());
        }
        return null;
    }

    /** The run's rules about latency, errors or the request rate, each with the chart axis it belongs on. */
    private static List<SloLine> sloLines(List<SloRule> rules) {
        List<SloLine> out = new ArrayList<>();
        for (SloRule r : rules) {
            String axis = TrafficMetrics.latency(r.getMetric()) ? "latency"
                    : MetricNames.THROUGHPUT_ERRORS_RATIO.equals(r.getMetric()) ? "errors"
                    : MetricNames.THROUGHPUT_REQUESTS_PER_S.equals(r.getMetric()) ? "rate" : null;
            if (axis != null) {
                out.add(SloLine.of(r, axis));
            }
        }
        return out;
    }

    /**
     * What the reader must be told about the run's throughput and latency: the load generator, not the server, was
     * the limit; the tool wrote latency percentiles since start only (a step with a mean from its totals and no
     * percentiles), so no step has p50/p95/p99. {@code loadExpression} is the run's, naming the limit's x.
     */
    public static List<String> warnings(RunThroughputLimit limit, String loadExpression, List<ThroughputStep> steps,
            String tool) {
        List<String> out = new ArrayList<>();
        if (steps.stream().anyMatch(s -> s.latencyMeanMs() != null && s.latencyP50Ms() == null
                && s.latencyP95Ms() == null && s.latencyP99Ms() == null)) {
            out.add(LOCUST.equalsIgnoreCase(tool)
                    ? "Locust wrote percentiles since start only; run it with --csv-full-history for per-step "
                            + "p50/p95/p99. The mean latency per step is exact, from Locust's own totals."
                    : "The load tool (" + (tool == null ? "unnamed" : tool) + ") sent latency percentiles since "
                            + "start only, so no step has p50/p95/p99. The mean latency per step is exact, from the "
                            + "tool's own totals.");
        }
        if (limit != null) {
            GeneratorLimit.carried(limit).ifPresent(g -> out.add(generatorLimited(limit, g, loadExpression)));
        }
        return out;
    }

    private static String generatorLimited(RunThroughputLimit limit, GeneratorLimit generator,
            String loadExpression) {
        return "the load generator, not the server, was the limit: its CPU was at "
                + Figures.number(generator.cpuPercent()) + " % at " + loadExpression + "="
                + Figures.number(generator.x()) + ", at or after the throughput knee ("
                + loadExpression + "=" + Figures.number(limit.getKneeX()) + ", 95 % "
                + Figures.number(limit.getKneeLower95()) + "–" + Figures.number(limit.getKneeUpper95())
                + "); the plateau of " + Figures.number(limit.getPlateauRatePerSecond()) + " requests/s is the"
                + " generator's";
    }

    private static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }
}
