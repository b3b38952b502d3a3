package dev.caplab.streams.step;

import java.util.Map;
import java.util.Objects;

/**
 * One step of a run in event time: samples with {@code startMicros <= t < endMicros} belong to it, those before
 * {@code startMicros + warmupMicros} are warm-up. {@code endMicros == OPEN} while the step has not ended.
 */
public record StepWindow(int index, Map<String, Double> load, long startMicros, long endMicros, long warmupMicros,
                         boolean inferred) {

    /** End of a step that has not ended yet. */
    public static final long OPEN = Long.MAX_VALUE;
    /** Step index of the pre-test baseline aggregates. */
    public static final int BASELINE_INDEX = -1;
    /** Step index of the aggregates of samples outside every step. */
    public static final int UNASSIGNED_INDEX = -2;

    public StepWindow {
        if (index < 0) {
            throw new IllegalArgumentException("step index must be >= 0, was " + index);
        }
        load = Map.copyOf(Objects.requireNonNull(load, "load"));
        if (endMicros != OPEN && endMicros < startMicros) {
            throw new IllegalArgumentException("step " + index + " ends at " + endMicros + " before its start "
                    + startMicros);
        }
        if (warmupMicros < 0) {
            throw new IllegalArgumentException("step " + index + ": warm-up must be >= 0, was " + warmupMicros);
        }
    }

    public boolean isOpen() {
        return endMicros == OPEN;
    }

    public boolean contains(long tMicros) {
        return tMicros >= startMicros && tMicros < endMicros;
    }

    /** Samples at or after this instant are steady state. */
    public long steadyFromMicros() {
        return startMicros + warmupMicros;
    }

    public StepWindow endingAt(long end) {
        return new StepWindow(index, load, startMicros, Math.max(end, startMicros), warmupMicros, inferred);
    }
}
