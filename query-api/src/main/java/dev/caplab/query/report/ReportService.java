package dev.caplab.query.report;

import dev.caplab.query.fits.FitView;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.access.StepAggregateRepository;
import dev.caplab.store.row.RunRow;
import dev.caplab.query.endpoints.EndpointService;
import dev.caplab.query.plan.PlanRequest;
import dev.caplab.query.plan.PlanService;
import dev.caplab.query.runs.RunDetail;
import dev.caplab.query.runs.RunService;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.query.steps.StepView;
import dev.caplab.store.row.RunStep;
import dev.caplab.query.throughput.ThroughputService;
import dev.caplab.query.web.BadRequestParameterException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.stereotype.Service;

/** Gathers what a report shows of each run from the query services and renders it as one HTML document. */
@Service
public class ReportService {

    /** More runs than this make columns too narrow to read. */
    static final int MAX_RUNS = 6;

    private final RunService runs;
    private final StepAggregateRepository aggregates;
    private final PlanService plans;
    private final ThroughputService throughput;
    private final RunRepository rules;
    private final EndpointService endpoints;

    ReportService(RunService runs, StepAggregateRepository aggregates, PlanService plans, ThroughputService throughput,
                  RunRepository rules, EndpointService endpoints) {
        this.runs = runs;
        this.rules = rules;
        this.aggregates = aggregates;
        this.plans = plans;
        this.throughput = throughput;
        this.endpoints = endpoints;
    }

    /** The report of {@code runIds} (one run, or several side by side) as a self-contained HTML document. */
    public String html(List<String> runIds) {
        List<String> distinct = List.copyOf(new LinkedHashSet<>(runIds == null ? List.of() : runIds));
        if (distinct.isEmpty()) {
            throw new BadRequestParameterException("run", "[]", "name at least one run");
        }
        if (distinct.size() > MAX_RUNS) {
            throw new BadRequestParameterException("run", distinct.size(), "at most " + MAX_RUNS + " runs");
        }
        return ReportHtml.render(distinct.stream().map(this::report).toList());
    }

    RunReport report(String runId) {
        // every aggregate of the run first: the detail's throughput rows are then taken from them, not read again
        List<StepAggregate> aggregates = this.aggregates.ofRun(runId).stream()
                .filter(a -> a.getStepIndex() >= 0).toList();
        RunDetail detail = runs.detail(runId);
        double planLoad = detail.maxStableX() == null ? 0 : detail.maxStableX();
        var plan = plans.plan(new PlanRequest(new PlanRequest.Profile("max stable load", planLoad, null, null, null),
                List.of(runId), List.of(), null, null));
        int resourceSteps = (int) aggregates.stream().filter(a -> a.getX() != null && MetricNames.resource(a.getMetric()))
                .mapToInt(StepAggregate::getStepIndex).distinct().count();
        return new RunReport(detail, resources(detail, aggregates), throughput.of(runId), plan, planLoad,
                rules.find(runId).map(RunRow::sloRules).orElse(List.of()), endpoints.of(runId), resourceSteps);
    }

    private static List<FittedResource> resources(RunDetail detail, List<StepAggregate> aggregates) {
        Map<Integer, RunStep> byIndex = detail.steps().stream().map(StepView::step)
                .collect(Collectors.toMap(RunStep::stepIndex, Function.identity()));
        List<FittedResource> out = new ArrayList<>();
        for (FitView fit : detail.fits().stream().filter(f -> !f.throughputFit()).toList()) {
            List<FittedResource.Point> points = new ArrayList<>();
            for (StepAggregate a : aggregates) {
                RunStep step = byIndex.get(a.getStepIndex());
                if (a.getMetric().equals(fit.fit().getMetric()) && a.getSource().equals(fit.fit().getSource()) && a.getX() != null
                        && Double.isFinite(a.getSustained())) {
                    points.add(new FittedResource.Point(a.getStepIndex(), a.getX(), a.getSustained(),
                            step == null ? null : step.passed(), a.getContaminated(), step == null || step.judged()));
                }
            }
            out.add(new FittedResource(fit, points));
        }
        return out;
    }
}
