package dev.caplab.query.runs;

import dev.caplab.store.row.RunLatenessRow;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * How much of a run's input came late: samples folded into steps after they first closed (each amended its step:
 * a higher version of its aggregates, verdict and the run's fits), and samples beyond the allowed lateness, stored raw
 * in {@code samples} and in no aggregate.
 */
public record RunLateness(
        @Schema(description = "samples that reached a step after it first closed; each amended that step")
        long lateSamples,
        @Schema(description = "samples that came after the allowed lateness: stored raw, in no aggregate or fit")
        long beyondLatenessSamples) {

    public static final RunLateness NONE = new RunLateness(0, 0);

    /** The stored counts, or {@link #NONE} for a run nothing came late for. */
    public static RunLateness of(java.util.Optional<RunLatenessRow> row) {
        return row.map(r -> new RunLateness(r.lateSamples(), r.beyondLatenessSamples())).orElse(NONE);
    }
}
