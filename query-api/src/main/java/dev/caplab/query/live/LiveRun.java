package dev.caplab.query.live;

import dev.caplab.query.steps.StepView;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Where a run stands now, read from the store on every request (any API instance answers the same): its status, when
 * it started and (if so) ended, the server's clock, how long it has run, its latest sample and the sample rate over
 * the last seconds of its own time, the step it is in, every step with its verdict so far, and how it will end.
 */
@Schema(description = "Where a run stands now: status, elapsed time, sample rate, current step, steps so far, end")
public record LiveRun(
        String runId,
        @Schema(description = "RUNNING until the run ends, then its final status (e.g. COMPLETED)") String status,
        @Schema(description = "DECLARED (a client started it) or INFERRED (its first samples did)") String origin,
        Instant startedAt,
        @Schema(description = "null while running") Instant endedAt,
        @Schema(description = "the answering server's clock, which elapsed and the end estimate use") Instant now,
        @Schema(description = "seconds from the start to the end, or to now while running") double elapsedSeconds,
        @Schema(description = "samples stored for the run") long samples,
        @Schema(description = "time stamp of the run's latest stored sample; null without samples") Instant lastSampleAt,
        @Schema(description = "samples per second stamped in the rateWindowSeconds before the latest sample")
        double samplesPerSecond,
        @Schema(description = "seconds of sample time samplesPerSecond is counted over") int rateWindowSeconds,
        @Schema(description = "the step the run is in (the highest-numbered step not yet ended, else the last "
                + "one); null before any step is known") CurrentStep currentStep,
        @Schema(description = "every step known so far with its verdict (passed null while pending)")
        List<StepView> steps,
        RunEnd end) {

    public LiveRun {
        steps = List.copyOf(steps);
    }

    /** The step the run is in: its index, load dimensions, fitted x (null until judged), start and whether ended. */
    public record CurrentStep(int stepIndex, Map<String, Double> load, Double x, Instant startedAt, Instant endedAt,
                              @Schema(description = "seconds since the step started, to its end or to now")
                              Double elapsedSeconds) {

        public CurrentStep {
            load = load == null ? Map.of() : Map.copyOf(load);
        }
    }

    /**
     * How the run ends. {@code by}: ENDED (it has), RUN_END (a declared run ends when its client sends the run end,
     * or after {@code idleEndSeconds} without input), IDLE (a run its samples started ends {@code idleEndSeconds}
     * after its last input). {@code idleEndsAt} is the latest sample's time plus that idle time: when caplab ends the
     * run if nothing more arrives and the samples are stamped with the time they are sent.
     */
    public record RunEnd(@Schema(description = "ENDED, RUN_END or IDLE") String by,
                         @Schema(description = "seconds without input after which caplab ends the run")
                         Long idleEndSeconds,
                         @Schema(description = "the latest sample (or the start) plus the idle time; null once ended")
                         Instant idleEndsAt,
                         @Schema(description = "when it ended; null while running") Instant endedAt) {
    }
}
