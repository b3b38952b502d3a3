package dev.caplab.analysis.fit;

import java.util.OptionalInt;

/**
 * One observation of a resource at a load level: {@code y} measured at load {@code x}.
 *
 * <p>{@code count} is how many raw samples this point already summarises (1 for a raw sample,
 * n for a per-step sustained mean over n samples). {@code stepIndex}, when present, groups
 * points into steps; without it points are grouped by equal {@code x}.
 */
public record StepPoint(double x, double y, long count, OptionalInt stepIndex) {
    public StepPoint {
        if (!Double.isFinite(x) || !Double.isFinite(y)) {
            throw new IllegalArgumentException("StepPoint needs finite x and y, got x=" + x + " y=" + y);
        }
        if (count < 1) {
            throw new IllegalArgumentException("StepPoint count must be >= 1, got " + count + " at x=" + x);
        }
        if (stepIndex == null) {
            throw new IllegalArgumentException("stepIndex must be OptionalInt.empty(), not null");
        }
    }

    /** A single sample at load {@code x}. */
    public static StepPoint of(double x, double y) {
        return new StepPoint(x, y, 1, OptionalInt.empty());
    }

    /** A value that already summarises {@code count} samples at load {@code x}. */
    public static StepPoint of(double x, double y, long count) {
        return new StepPoint(x, y, count, OptionalInt.empty());
    }

    /** A sample belonging to step {@code stepIndex}. */
    public static StepPoint atStep(int stepIndex, double x, double y) {
        return new StepPoint(x, y, 1, OptionalInt.of(stepIndex));
    }
}
