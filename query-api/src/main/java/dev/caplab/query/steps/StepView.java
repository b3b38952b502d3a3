package dev.caplab.query.steps;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.caplab.analysis.conclusion.StepStatus;
import dev.caplab.query.format.Figures;
import dev.caplab.schema.event.RuleOutcome;
import dev.caplab.store.row.RunStep;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A run's step as the API serves it: the step ({@link RunStep}, its fields flattened into this one's JSON and CSV)
 * with its status ({@link StepStatus}, the one rule) and the SLO rules it broke written for people
 * ({@code failedRules}). That text gives each observed value in its metric's unit by {@link Figures}, which is
 * presentation and lives here, not in the store.
 */
public record StepView(@JsonUnwrapped RunStep step) {

    public StepView {
        Objects.requireNonNull(step, "step");
    }

    /** The steps as served. */
    public static List<StepView> of(List<RunStep> steps) {
        return steps.stream().map(StepView::new).toList();
    }

    /**
     * What the step says about the system, as its word ({@link StepStatus#word}): pass, fail, not judged,
     * contaminated or pending; pages show it, and nothing re-decides it.
     */
    @JsonProperty("status")
    public String status() {
        return StepStatus.of(step.contaminated(), step.judged(), step.passed()).word();
    }

    /** {@link #failedRules(List)} of the step's verdict; null while it has none. */
    @JsonProperty("failedRules")
    public String failedRules() {
        return step.outcomes() == null ? null : failedRules(step.outcomes());
    }

    /**
     * The names of the SLO rules a step broke, with what was observed in the rule metric's unit, e.g.
     * {@code p95-latency (observed 812 ms)}.
     */
    static String failedRules(List<RuleOutcome> outcomes) {
        return outcomes.stream().filter(o -> !o.getPassed())
                .map(o -> o.getRule().getName() + (o.getObserved() == null ? ""
                        : " (observed " + Figures.quantity(o.getRule().getMetric(), o.getObserved()) + ")"))
                .collect(Collectors.joining("; "));
    }
}
