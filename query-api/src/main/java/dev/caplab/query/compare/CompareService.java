package dev.caplab.query.compare;

import dev.caplab.query.fits.FitView;
import dev.caplab.query.runs.ConclusionView;
import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.schema.event.RunBottleneck;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.RunConclusionRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.query.runs.RunService;
import dev.caplab.store.row.RunRow;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.springframework.stereotype.Service;

/**
 * Builds side-by-side comparisons of measured runs; it never extrapolates, it only warns when a reader might, and
 * gives each run's highest tested load beside its safe capacity, which is a straight line's and may lie beyond it.
 */
@Service
public class CompareService {

    private final RunRepository runs;
    private final CapacityFitRepository fits;
    private final RunConclusionRepository conclusions;
    private final RunService details;

    CompareService(RunRepository runs, CapacityFitRepository fits, RunConclusionRepository conclusions,
            RunService details) {
        this.runs = runs;
        this.fits = fits;
        this.conclusions = conclusions;
        this.details = details;
    }

    Comparison compare(List<String> runIds, Optional<String> sut, boolean acrossSystems, GroupBy groupBy,
                       Optional<String> metric) {
        RunSelection chosen = RunSelection.of(runs, runIds, sut, acrossSystems);
        // every run's conclusion and fits in one query each, not two per run
        List<String> ids = chosen.runs().stream().map(RunRow::runId).toList();
        Map<String, RunConclusion> concluded = conclusions.latestOf(ids);
        Map<String, List<FitView>> fitted = FitView.of(fits.ofRuns(ids)).stream()
                .collect(Collectors.groupingBy(f -> f.fit().getRunId()));
        Map<String, Double> tested = details.testedToX(ids);
        List<ComparisonRow> rows = chosen.runs().stream().map(run -> row(run, groupBy, metric,
                        Optional.ofNullable(concluded.get(run.runId())), fitted.getOrDefault(run.runId(), List.of()),
                        tested.get(run.runId())))
                .sorted(Cohort.rowOrder()).toList();
        List<Cohort> cohorts = Cohort.partition(rows);
        return new Comparison(groupBy.label(), metric.orElse("bottleneck"), chosen.sut(), chosen.scope(), rows,
                cohorts, ComparisonWarnings.of(cohorts));
    }

    /**
     * Max stable load, bottleneck and safe capacity as the run's conclusion states them; base and slope from fits;
     * {@code testedToX} the highest load the run tested (null when none closed).
     */
    static ComparisonRow row(RunRow run, GroupBy groupBy, Optional<String> metric,
            Optional<RunConclusion> conclusion, List<FitView> runFits, Double testedToX) {
        Optional<RunBottleneck> bottleneck = conclusion.map(RunConclusion::getBottleneck);
        // the requested resource, else the binding one, so base and slope describe what limits this run
        Optional<FitView> shown = metric.map(m -> runFits.stream().filter(f -> f.fit().getMetric().equals(m))
                        .findFirst())
                .orElseGet(() -> bottleneck.flatMap(b -> runFits.stream()
                        .filter(f -> f.fit().getMetric().equals(b.getMetric())
                                && f.fit().getSource().equals(b.getSource()))
                        .findFirst()));
        return new ComparisonRow(groupBy.groupOf(run), run.runId(), run.sutName(), run.provider(), run.region(),
                run.tier(), run.instanceType(), run.vcpu(), run.memoryBytes(), run.nominalEgressMbps(),
                run.measuredEgressMbps(), run.loadExpression(), conclusion.map(RunConclusion::getMaxStableX).orElse(null),
                conclusion.map(RunConclusion::getFirstFailingX).orElse(null),
                shown.map(f -> f.fit().getMetric()).orElse(null), shown.map(FitView::baseline).orElse(null),
                shown.map(FitView::slopePerX).orElse(null), shown.map(FitView::kneeX).orElse(null),
                // a cliff of a resource: the request rate's fit is the throughput limit's, not a resource's
                runFits.stream().filter(f -> !f.throughputFit()).anyMatch(f -> f.fit().getCliff()),
                bottleneck.map(RunBottleneck::getMetric).orElse(null),
                bottleneck.map(RunBottleneck::getSource).orElse(null),
                bottleneck.map(b -> b.getRule().name()).orElse(null),
                conclusion.flatMap(c -> new ConclusionView(c).bottleneckEstimate())
                        .map(ResourceEstimate::getSafeCapacityX).orElse(null),
                testedToX);
    }
}
