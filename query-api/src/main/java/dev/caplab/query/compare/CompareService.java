package dev.caplab.query.compare;

import dev.caplab.query.fits.FitReader;
import dev.caplab.query.fits.FitView;
import dev.caplab.query.runs.RunReader;
import dev.caplab.query.runs.RunSummary;
import dev.caplab.query.steps.MaxStableLoad;
import dev.caplab.query.steps.StepReader;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Service;

/** Builds side-by-side comparisons of measured runs; it never extrapolates, it only warns when a reader might. */
@Service
public class CompareService {

    private final RunReader runs;
    private final StepReader steps;
    private final FitReader fits;

    CompareService(RunReader runs, StepReader steps, FitReader fits) {
        this.runs = runs;
        this.steps = steps;
        this.fits = fits;
    }

    Comparison compare(List<String> runIds, Optional<String> sut, boolean acrossSystems, GroupBy groupBy,
                       Optional<String> metric) {
        RunSelection chosen = RunSelection.of(runs, runIds, sut, acrossSystems);
        List<ComparisonRow> rows = chosen.runs().stream().map(run -> row(run, groupBy, metric))
                .sorted(Cohort.rowOrder()).toList();
        List<Cohort> cohorts = Cohort.partition(rows);
        return new Comparison(groupBy.label(), metric.orElse("bottleneck"), chosen.sut(), chosen.scope(), rows,
                cohorts, ComparisonWarnings.of(cohorts));
    }

    private ComparisonRow row(RunSummary run, GroupBy groupBy, Optional<String> metric) {
        MaxStableLoad stable = MaxStableLoad.of(steps.steps(run.runId()));
        List<FitView> runFits = fits.fits(run.runId(), Optional.empty());
        Optional<FitView> bottleneckFit = runFits.stream().filter(FitView::bottleneck).findFirst();
        // the requested resource, else the binding one, so base and slope describe what limits this run
        Optional<FitView> shown = metric.map(m -> runFits.stream().filter(f -> f.metric().equals(m)).findFirst())
                .orElse(bottleneckFit);
        String bottleneck = bottleneckFit.map(FitView::metric)
                .orElseGet(() -> stable.firstFailing().map(s -> s.bottleneck()).orElse(null));
        return new ComparisonRow(groupBy.groupOf(run), run.runId(), run.sutName(), run.provider(), run.region(),
                run.tier(), run.instanceType(), run.vcpu(), run.memoryBytes(), run.nominalEgressMbps(),
                run.measuredEgressMbps(), run.loadExpression(), stable.maxStableX(), stable.failedX(),
                shown.map(FitView::metric).orElse(null), shown.map(FitView::baseline).orElse(null),
                shown.map(FitView::slopePerX).orElse(null), shown.map(FitView::kneeX).orElse(null),
                runFits.stream().anyMatch(FitView::cliff), bottleneck,
                bottleneckFit.map(FitView::safeCapacityX).orElse(null));
    }
}
