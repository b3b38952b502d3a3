package dev.caplab.query.runs;

import dev.caplab.query.fits.FitView;
import dev.caplab.query.steps.StepView;
import dev.caplab.store.access.AlertRepository;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.DeletedRunRepository;
import dev.caplab.store.access.RunConclusionRepository;
import dev.caplab.store.access.RunLatenessRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.access.RunSteps;
import dev.caplab.query.throughput.RunThroughput;
import dev.caplab.query.throughput.ThroughputService;
import dev.caplab.store.access.RunFilter;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.store.row.RunRow;
import dev.caplab.store.row.RunStep;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Service;

/**
 * Assembles run details from the store's runs, steps, verdicts, fits, alerts, late-data counts and the run conclusion
 * (max stable load, bottleneck, capacity estimates: read as streams decided them, never re-decided here).
 */
@Service
public class RunService {

    private final RunRepository runs;
    private final DeletedRunRepository deletions;
    private final RunSteps steps;
    private final CapacityFitRepository fits;
    private final AlertRepository alerts;
    private final RunLatenessRepository lateness;
    private final RunConclusionRepository conclusions;
    private final ThroughputService throughput;

    RunService(RunRepository runs, DeletedRunRepository deletions, RunSteps steps, CapacityFitRepository fits, AlertRepository alerts,
            RunLatenessRepository lateness, RunConclusionRepository conclusions, ThroughputService throughput) {
        this.throughput = throughput;
        this.runs = runs;
        this.deletions = deletions;
        this.steps = steps;
        this.fits = fits;
        this.alerts = alerts;
        this.lateness = lateness;
        this.conclusions = conclusions;
    }

    /** The runs of {@code filter}, each with its conclusion's outcome (read for the whole page at once). */
    public List<RunSummary> find(RunFilter filter) {
        List<RunRow> page = runs.find(filter);
        Map<String, RunConclusion> outcomes = conclusions.latestOf(page.stream().map(RunRow::runId).toList());
        return page.stream().map(r -> RunSummary.of(r, outcomes.get(r.runId()))).toList();
    }

    /** The values every page offers to choose among, over all stored runs. */
    public RunChoices choices() {
        return RunChoices.of(runs.kinds());
    }

    /**
     * The highest load each run of {@code runIds} tested ({@link RunStep#testedToX}), read for all at once (two
     * queries); a run without a closed step has none. One run's rows are read as its detail reads them, so a
     * request that already read them (a report's detail, then its plan) reads them once.
     */
    public Map<String, Double> testedToX(List<String> runIds) {
        Map<String, Double> out = new HashMap<>();
        steps.ofRuns(runIds).forEach((id, runSteps) -> {
            Double tested = RunStep.testedToX(runSteps);
            if (tested != null) {
                out.put(id, tested);
            }
        });
        return out;
    }

    public RunDetail detail(String runId) {
        RunRow run = RunNotFoundException.require(runId, runs, deletions);
        RunThroughput traffic = throughput.of(runId);
        RunConclusion conclusion = conclusions.latest(runId).orElse(null);
        return new RunDetail(RunSummary.of(run, conclusion), ConclusionView.of(conclusion),
                StepView.of(steps.ofRun(runId)), FitView.of(fits.ofRun(runId)), alerts.ofRun(runId),
                lateness.countsOf(runId),
                EgressCeilingView.of(RunSummary.egressCeiling(conclusion, run)), traffic.throughputLimit(),
                traffic.warnings(), RunContinuation.of(run, runs::find).orElse(null));
    }
}
