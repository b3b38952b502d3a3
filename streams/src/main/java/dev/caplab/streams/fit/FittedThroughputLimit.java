package dev.caplab.streams.fit;

import dev.caplab.analysis.throughput.ThroughputLimit;
import java.util.Objects;

/**
 * The throughput limit the run's latest request-rate fit showed ({@link ThroughputLimit#detect}), with the number of
 * steps that fit used and its time (the end of the step that triggered it), all three carried in the run conclusion.
 */
public record FittedThroughputLimit(ThroughputLimit limit, int stepsUsed, long fittedAtMicros) {

    public FittedThroughputLimit {
        Objects.requireNonNull(limit, "limit");
    }
}
