package dev.caplab.query.runs;

import dev.caplab.query.fits.FitView;
import dev.caplab.query.steps.StepView;
import dev.caplab.query.throughput.ThroughputLimitView;
import dev.caplab.store.row.AlertRow;
import java.util.List;
import java.util.Objects;

/**
 * A run with its environment, steps and verdicts, fits, the max stable load (x of the last passing step before the
 * first failing one), the bottleneck (the resource whose fit says it binds first, else the failing step's), the
 * alerts raised for it (failed or contaminated steps, cliffs, input the pipeline rejected or limited), how much of its
 * input came late (each step says whether it was amended), and the egress ceiling planned against and where it came
 * from (null when none is known). {@code throughputLimit} is where the request rate stopped growing with load (null when
 * it did not, or cannot tell yet), beside the resource knees in {@code fits}; {@code warnings} say what makes a figure
 * not the server's (the load generator was the limit).
 */
public record RunDetail(RunSummary run, Double maxStableX, Integer maxStableStepIndex, Double failedX,
                        Integer failedStepIndex, String bottleneck, List<StepView> steps, List<FitView> fits,
                        List<AlertRow> alerts, RunLateness lateness, EgressCeiling egressCeiling,
                        ThroughputLimitView throughputLimit, List<String> warnings) {

    public RunDetail {
        steps = List.copyOf(steps);
        fits = List.copyOf(fits);
        alerts = List.copyOf(alerts);
        warnings = List.copyOf(warnings);
        Objects.requireNonNull(lateness, "lateness");
    }
}
