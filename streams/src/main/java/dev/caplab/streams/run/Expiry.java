package dev.caplab.streams.run;

import dev.caplab.streams.TopologySettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ends the wall clock decides: a run nobody ended, idle for its idle time, ends at its last sample; a run ended
 * more than the allowed lateness ago expires: its partials are deleted and its state shrinks to a marker keeping the
 * lateness counts, so samples arriving later are counted (beyond the allowed lateness), not taken for a new run.
 */
final class Expiry {

    private static final Logger LOG = LoggerFactory.getLogger(Expiry.class);

    private final TopologySettings settings;
    private final RunStateStore runs;
    private final PartialStore partials;
    private final SamplesCatchUp samplesCatchUp;
    private final InferredRuns inferred;
    private final MeasuredCeilings measured;

    Expiry(TopologySettings settings, RunStateStore runs, PartialStore partials, SamplesCatchUp samplesCatchUp,
            InferredRuns inferred, MeasuredCeilings measured) {
        this.settings = settings;
        this.runs = runs;
        this.partials = partials;
        this.samplesCatchUp = samplesCatchUp;
        this.inferred = inferred;
        this.measured = measured;
    }

    /** The run had no input for its idle time ({@link InferredRuns#idleEnd}) and never ended: it ends at its last sample. */
    void endIdle(RunState.Mutable run, long nowMillis) {
        LOG.info("run {}: no input for {}, ended at its last sample", run.runId, inferred.idleEnd(run));
        run.runEndedMicros = run.maxEventMicros;
        run.runEndSeenWallMillis = nowMillis - settings.grace().toMillis();
    }

    /** Deletes the run's partials and what the task keeps of it, and stores its marker. */
    void expire(RunState.Mutable run) {
        samplesCatchUp.forget(run.runId);
        inferred.forget(run.runId);
        measured.forget(run.runId);
        partials.deleteRun(run.runId);
        RunState.Mutable marker = RunState.empty(run.runId).toMutable();
        marker.expired = true;
        marker.lateSamples = run.lateSamples;
        marker.beyondLateness = run.beyondLateness;
        marker.latenessEmitted = run.latenessEmitted;
        marker.latenessRevision = run.latenessRevision;
        marker.lastInputWallMillis = run.lastInputWallMillis;
        runs.put(run.runId, RunStateSerde.encode(marker.freeze()));
    }
}
