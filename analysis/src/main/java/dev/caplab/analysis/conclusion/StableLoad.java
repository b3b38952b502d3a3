package dev.caplab.analysis.conclusion;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Max stable load: the last informative passing step before the first informative failing one, and that failing
 * step. Either may be absent (no passing step before the first failure; no failure seen, so the max stable load is
 * only a lower bound).
 */
public record StableLoad(Optional<StepJudgement> lastPassing, Optional<StepJudgement> firstFailing) {

    public StableLoad {
        Objects.requireNonNull(lastPassing, "lastPassing");
        Objects.requireNonNull(firstFailing, "firstFailing");
    }

    public OptionalDouble maxStableX() {
        return lastPassing.map(StepJudgement::x).orElse(OptionalDouble.empty());
    }

    public OptionalDouble firstFailingX() {
        return firstFailing.map(StepJudgement::x).orElse(OptionalDouble.empty());
    }
}
