package dev.caplab.query.runs;

import dev.caplab.query.conclusion.ConclusionReader;
import dev.caplab.query.fits.FitReader;
import dev.caplab.query.steps.StepReader;
import dev.caplab.query.throughput.RunThroughput;
import dev.caplab.query.throughput.ThroughputService;
import dev.caplab.store.access.RunFilter;
import dev.caplab.query.conclusion.ConclusionView;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * Assembles run details from the store's runs, steps, verdicts, fits, alerts, late-data counts and the run conclusion
 * (max stable load, bottleneck, capacity estimates: read as streams decided them, never re-decided here).
 */
@Service
public class RunService {

    private final RunReader runs;
    private final StepReader steps;
    private final FitReader fits;
    private final AlertReader alerts;
    private final LatenessReader lateness;
    private final ConclusionReader conclusions;
    private final ThroughputService throughput;

    RunService(RunReader runs, StepReader steps, FitReader fits, AlertReader alerts, LatenessReader lateness,
            ConclusionReader conclusions, ThroughputService throughput) {
        this.throughput = throughput;
        this.runs = runs;
        this.steps = steps;
        this.fits = fits;
        this.alerts = alerts;
        this.lateness = lateness;
        this.conclusions = conclusions;
    }

    /** The runs of {@code filter}, each with its conclusion's outcome (read for the whole page at once). */
    public List<RunSummary> find(RunFilter filter) {
        List<RunSummary> page = runs.find(filter);
        Map<String, ConclusionView> outcomes = conclusions.conclusions(page.stream().map(RunSummary::runId).toList());
        return page.stream().map(r -> {
            ConclusionView c = outcomes.get(r.runId());
            return c == null ? r : r.withOutcome(c.maxStableX(), c.firstFailingX(), c.bottleneck() == null ? null
                    : c.bottleneck().metric() + "@" + c.bottleneck().source());
        }).toList();
    }

    /** The values every page offers to choose among, over all stored runs. */
    public RunChoices choices() {
        return RunChoices.of(runs.kinds());
    }

    public RunDetail detail(String runId) {
        RunSummary run = runs.get(runId).orElseThrow(() -> runs.missing(runId));
        RunThroughput traffic = throughput.of(runId);
        ConclusionView conclusion = conclusions.conclusion(runId).orElse(null);
        return new RunDetail(run, conclusion, steps.steps(runId),
                fits.fits(runId, Optional.empty()), alerts.alerts(runId), lateness.lateness(runId),
                conclusion == null || conclusion.egressCeiling() == null ? null
                        : EgressCeiling.of(conclusion.egressCeiling()), traffic.throughputLimit(),
                traffic.warnings(), RunContinuation.of(run, runs::get).orElse(null));
    }
}
