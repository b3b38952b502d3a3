package dev.caplab.query.steps;

import java.util.List;
import java.util.Optional;

/**
 * The last passing step before the first failing one, and that failing step. Contaminated steps and steps without a
 * verdict say nothing about the system, so they are skipped rather than counted as pass or fail.
 */
public record MaxStableLoad(Optional<StepView> lastPassing, Optional<StepView> firstFailing) {

    public static MaxStableLoad of(List<StepView> steps) {
        StepView lastPassing = null;
        for (StepView step : steps.stream().sorted((a, b) -> Integer.compare(a.stepIndex(), b.stepIndex())).toList()) {
            if (step.contaminated() || step.passed() == null) {
                continue;
            }
            if (!step.passed()) {
                return new MaxStableLoad(Optional.ofNullable(lastPassing), Optional.of(step));
            }
            lastPassing = step;
        }
        return new MaxStableLoad(Optional.ofNullable(lastPassing), Optional.empty());
    }

    public Double maxStableX() {
        return lastPassing.map(StepView::x).orElse(null);
    }

    public Double failedX() {
        return firstFailing.map(StepView::x).orElse(null);
    }
}
