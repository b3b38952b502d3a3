package dev.caplab.query.compare;

import dev.caplab.query.fits.FitReader;
import dev.caplab.query.fits.FitView;
import dev.caplab.query.runs.RunFilter;
import dev.caplab.query.runs.RunReader;
import dev.caplab.query.runs.RunSummary;
import dev.caplab.query.steps.MaxStableLoad;
import dev.caplab.query.steps.StepReader;
import dev.caplab.query.web.BadRequestParameterException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Service;

/** Builds side-by-side comparisons of measured runs; it never extrapolates, it only warns when a reader might. */
@Service
public class CompareService {

    static final int MAX_RUNS = 50;

    private final RunReader runs;
    private final StepReader steps;
    private final FitReader fits;

    CompareService(RunReader runs, StepReader steps, FitReader fits) {
        this.runs = runs;
        this.steps = steps;
        this.fits = fits;
    }

    Comparison compare(List<String> runIds, Optional<String> sut, GroupBy groupBy, Optional<String> metric) {
        List<RunSummary> chosen;
        if (!runIds.isEmpty()) {
            if (runIds.size() > MAX_RUNS) {
                throw new BadRequestParameterException("runId", runIds.size() + " runs", "at most " + MAX_RUNS);
            }
            chosen = runs.getAll(runIds);
            if (chosen.size() < runIds.size()) {
                List<String> missing = runIds.stream().filter(id -> chosen.stream().noneMatch(r -> r.runId().equals(id)))
                        .toList();
                throw new BadRequestParameterException("runId", missing, "no such run");
            }
        } else {
            chosen = runs.find(new RunFilter(sut.orElse(null), null, null, null, null, null, Map.of(), null, null,
                    MAX_RUNS, 0));
        }
        List<ComparisonRow> rows = chosen.stream().map(run -> row(run, groupBy, metric))
                .sorted(Comparator.comparing(ComparisonRow::group).thenComparing(ComparisonRow::runId)).toList();
        return new Comparison(groupBy.label(), metric.orElse("bottleneck"), rows, ComparisonWarnings.of(rows));
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
