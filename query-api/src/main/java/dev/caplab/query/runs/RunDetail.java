package dev.caplab.query.runs;

import dev.caplab.query.fits.FitView;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.caplab.schema.event.RunBottleneck;
import dev.caplab.query.steps.StepView;
import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.RunLateness;
import dev.caplab.query.throughput.ThroughputLimitView;
import dev.caplab.store.row.RunStep;
import java.util.List;
import java.util.Objects;

/**
 * A run with its environment (as listed, with its conclusion's outcome), its conclusion (max stable load, first failing step, the bottleneck and the rule that
 * named it, per-resource capacity estimates; null until a step closed), steps and verdicts, fits, the alerts raised
 * for it (failed or contaminated steps, cliffs, input the pipeline rejected or limited), how much of its input came
 * late (each step says whether it was amended), and the egress ceiling planned against and where it came from (null
 * when none is known: the conclusion's, else what the run declared). {@code maxStableX}, {@code failedX} and their
 * step indexes repeat the conclusion's; {@code testedToX} is the highest load its steps tested.
 * {@code throughputLimit} is where the request rate stopped growing with load (null when it did not, or cannot tell
 * yet), beside the resource knees in {@code fits}; {@code warnings} are the throughput view's (the load generator
 * was the limit; the tool's percentiles were since start only). {@code continuation} links a run nobody declared to the tests sent to its run id before
 * and after it (null when there are none).
 */
public record RunDetail(RunSummary run, ConclusionView conclusion, List<StepView> steps, List<FitView> fits,
                        List<Alert> alerts, RunLateness lateness, EgressCeilingView egressCeiling,
                        ThroughputLimitView throughputLimit, List<String> warnings, RunContinuation continuation) {

    public RunDetail {
        Objects.requireNonNull(run, "run");
        steps = List.copyOf(steps);
        fits = List.copyOf(fits);
        alerts = List.copyOf(alerts);
        warnings = List.copyOf(warnings);
        Objects.requireNonNull(lateness, "lateness");
    }

    @JsonProperty("maxStableX")
    public Double maxStableX() {
        return conclusion == null ? null : conclusion.stored().getMaxStableX();
    }

    @JsonProperty("maxStableStepIndex")
    public Integer maxStableStepIndex() {
        return conclusion == null ? null : conclusion.stored().getMaxStableStepIndex();
    }

    /** Why the max stable load is absent (no SLO rules) or that default rules gave it; null otherwise. */
    @JsonProperty("maxStableNote")
    public String maxStableNote() {
        return conclusion == null ? null : conclusion.stableLoadNote();
    }

    /** The highest load the run tested ({@link RunStep#testedToX}); null before a step closed. */
    @JsonProperty("testedToX")
    public Double testedToX() {
        return RunStep.testedToX(steps.stream().map(StepView::step).toList());
    }

    @JsonProperty("failedX")
    public Double failedX() {
        return conclusion == null ? null : conclusion.stored().getFirstFailingX();
    }

    @JsonProperty("failedStepIndex")
    public Integer failedStepIndex() {
        return conclusion == null ? null : conclusion.stored().getFirstFailingStepIndex();
    }

    /** "metric@source" of the conclusion's bottleneck, for text that names it in one word; null when none is named. */
    public String bottleneckName() {
        RunBottleneck b = conclusion == null ? null : conclusion.stored().getBottleneck();
        return b == null ? null : ConclusionView.bottleneckName(conclusion.stored())
                + (b.getRole() == null ? "" : " (" + b.getRole() + ")");
    }
}
