package dev.caplab.query.runs;

import dev.caplab.query.fits.FitReader;
import dev.caplab.query.fits.FitView;
import dev.caplab.query.steps.MaxStableLoad;
import dev.caplab.query.steps.StepReader;
import dev.caplab.query.steps.StepView;
import dev.caplab.query.throughput.ThroughputLimitView;
import dev.caplab.query.throughput.ThroughputService;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Service;

/** Assembles run details from the store's runs, steps, verdicts, fits, alerts and late-data counts. */
@Service
public class RunService {

    private final RunReader runs;
    private final StepReader steps;
    private final FitReader fits;
    private final AlertReader alerts;
    private final LatenessReader lateness;
    private final ThroughputService throughput;

    RunService(RunReader runs, StepReader steps, FitReader fits, AlertReader alerts, LatenessReader lateness,
            ThroughputService throughput) {
        this.throughput = throughput;
        this.runs = runs;
        this.steps = steps;
        this.fits = fits;
        this.alerts = alerts;
        this.lateness = lateness;
    }

    public List<RunSummary> find(RunFilter filter) {
        return runs.find(filter);
    }

    public RunDetail detail(String runId) {
        RunSummary run = runs.get(runId).orElseThrow(() -> new RunNotFoundException(runId));
        List<StepView> runSteps = steps.steps(runId);
        List<FitView> runFits = fits.fits(runId, Optional.empty());
        MaxStableLoad stable = MaxStableLoad.of(runSteps);
        Optional<ThroughputLimitView> limit = throughput.limit(runId);
        return new RunDetail(run, stable.maxStableX(), stable.lastPassing().map(StepView::stepIndex).orElse(null),
                stable.failedX(), stable.firstFailing().map(StepView::stepIndex).orElse(null),
                bottleneck(runFits, stable).orElse(null), runSteps, runFits, alerts.alerts(runId),
                lateness.lateness(runId), EgressCeiling.of(run, runs.measuredEgress(runId)).orElse(null),
                limit.orElse(null), ThroughputService.warnings(limit.orElse(null)));
    }

    /** The fit flagged as binding first wins; without one, what the first failing step's verdict blamed. */
    static Optional<String> bottleneck(List<FitView> fits, MaxStableLoad stable) {
        return fits.stream().filter(FitView::bottleneck).map(FitView::metric).findFirst()
                .or(() -> stable.firstFailing().map(StepView::bottleneck));
    }
}
