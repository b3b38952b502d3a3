package dev.caplab.streams.run;

import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.step.StepWindow;
import java.time.Duration;
import java.util.List;

/**
 * When each part of a run is due: a step closes once its samples' event time, or {@code grace} of wall clock after
 * its end was seen (and the samples sent before that end were read, {@link SamplesCatchUp}), has passed its end; the
 * run closes likewise after its last step; a run nobody ended ends when idle ({@link InferredRuns#idleEnd}); an ended
 * run expires {@link TopologySettings#allowedLateness()} after its end was seen.
 */
final class Deadlines {

    /** How soon a run due to close but waiting for its samples ({@link SamplesCatchUp}) is looked at again. */
    private static final Duration SAMPLES_RECHECK = Duration.ofMillis(500);

    private final TopologySettings settings;
    private final SamplesCatchUp samplesCatchUp;
    private final InferredRuns inferred;
    private final Amendments amendments;

    Deadlines(TopologySettings settings, SamplesCatchUp samplesCatchUp, InferredRuns inferred, Amendments amendments) {
        this.settings = settings;
        this.samplesCatchUp = samplesCatchUp;
        this.inferred = inferred;
        this.amendments = amendments;
    }

    /** Whether the task has read the samples sent before the run's latest end (the wall-clock close waits for it). */
    boolean samplesRead(RunState.Mutable run, long nowMillis) {
        return samplesCatchUp.caughtUp(run.runId, nowMillis);
    }

    /** Whether {@code step}, whose end is known, may close. */
    boolean stepDue(RunState.Mutable run, StepWindow step, long nowMillis, boolean samplesRead) {
        long seen = Timeline.endSeenWallMillis(run, step);
        boolean eventTimeReady = run.maxEventMicros >= step.endMicros() + settings.graceMicros();
        boolean wallReady = seen >= 0 && nowMillis >= seen + settings.grace().toMillis() && samplesRead;
        return eventTimeReady || wallReady;
    }

    /** Whether the run, ended and with every step closed, may close. */
    boolean runDue(RunState.Mutable run, long nowMillis, boolean samplesRead) {
        return run.maxEventMicros >= run.runEndedMicros + settings.graceMicros()
                || nowMillis >= run.runEndSeenWallMillis + settings.grace().toMillis() && samplesRead;
    }

    /** Whether a run nobody ended had no input for its idle time. */
    boolean idleEndDue(RunState.Mutable run, long nowMillis) {
        return !run.expired && run.runEndedMicros < 0
                && nowMillis >= run.lastInputWallMillis + inferred.idleEnd(run).toMillis();
    }

    /** Whether the run ended (and closed, nothing left to amend) more than the allowed lateness ago. */
    boolean expiryDue(RunState.Mutable run, long nowMillis) {
        return !run.expired && run.runClosed && !Amendments.pending(run)
                && nowMillis >= run.runEndSeenWallMillis + settings.allowedLateness().toMillis();
    }

    /** When the run next needs the wall clock; {@link Long#MAX_VALUE} when only input can move it. */
    long next(RunState.Mutable run, long nowMillis) {
        long amend = amendments.nextMillis(run);
        if (run.expired) {
            return amend;
        }
        if (run.runClosed) {
            return Math.min(amend, run.runEndSeenWallMillis + settings.allowedLateness().toMillis());
        }
        long graceMillis = settings.grace().toMillis();
        long next = Long.MAX_VALUE;
        List<StepWindow> timeline = Timeline.of(run, settings);
        if (run.closedSteps < timeline.size()) {
            long seen = Timeline.endSeenWallMillis(run, timeline.get(run.closedSteps));
            if (seen >= 0 && !timeline.get(run.closedSteps).isOpen()) {
                next = seen + graceMillis;
            }
        } else if (run.runEndedMicros >= 0) {
            next = run.runEndSeenWallMillis + graceMillis;
        }
        if (next <= nowMillis && !samplesCatchUp.caughtUp(run.runId, nowMillis)) {
            next = nowMillis + SAMPLES_RECHECK.toMillis(); // due, but its samples are still to be read
        }
        if (run.runEndedMicros < 0) {
            long lastInput = run.lastInputWallMillis > 0 ? run.lastInputWallMillis : nowMillis;
            next = Math.min(next, lastInput + inferred.idleEnd(run).toMillis()); // a run nobody declared ends when idle
        }
        return Math.min(next, amend);
    }
}
