package dev.caplab.analysis.verdict;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * Max stable load of a run. When no step failed, {@code failureObserved} is false and the value is only a lower
 * bound (the run stopped before finding the ceiling); when the first step failed, {@code load} is empty.
 */
public record MaxStableLoad(OptionalDouble load, int lastPassStep, int firstFailStep, OptionalDouble firstFailLoad,
                            boolean failureObserved) {
    public MaxStableLoad {
        Objects.requireNonNull(load, "load");
        Objects.requireNonNull(firstFailLoad, "firstFailLoad");
    }
}
