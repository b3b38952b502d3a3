package dev.caplab.streams.run;

import dev.caplab.streams.Micros;
import java.util.List;
import java.util.Optional;

/**
 * Keeps a run's encoded state within {@link RunLimits}: an input that would grow its input-driven part (RunStarted,
 * steps, level changes) past {@link RunLimits#maxCoreStateBytes()} is refused, and past
 * {@link RunLimits#maxStateBytes()} the derived parts are dropped (baselines, then fit points).
 */
final class StateBound {

    private final RunLimits limits;

    StateBound(RunLimits limits) {
        this.limits = limits;
    }

    /** Why the input just applied to {@code run} must be left out; empty when its state stays within bound. */
    Optional<String> inputOverflow(RunState.Mutable run) {
        RunState candidate = run.freeze();
        long core = RunStateSerde.encode(candidate).length - RunStateSerde.derivedBytes(candidate);
        return core <= limits.maxCoreStateBytes() ? Optional.empty() : Optional.of("the run's state would grow to "
                + core + " bytes of input-driven state, more than " + limits.maxCoreStateBytes()
                + " (the record is left out, the run goes on)");
    }

    /**
     * The run's encoded state, within {@link RunLimits#maxStateBytes()}: when the derived parts push it over, the
     * baselines are dropped first, then the fit points (later fits then start over), and the run is alerted once.
     */
    byte[] encode(RunState.Mutable run, List<DerivedEvent> out) {
        byte[] bytes = RunStateSerde.encode(run.freeze());
        if (bytes.length <= limits.maxStateBytes()) {
            return bytes;
        }
        if (run.firstTimeReached(RunState.Limit.STATE_BYTES)) {
            out.add(RunAlerts.limit(run.runId, Micros.toInstant(run.maxEventMicros), "run state of " + bytes.length
                    + " bytes, more than " + limits.maxStateBytes() + "; baselines and then fit points are dropped"));
        }
        run.baseline.clear();
        bytes = RunStateSerde.encode(run.freeze());
        if (bytes.length > limits.maxStateBytes()) {
            run.fitPoints.clear();
            run.cliffs.clear();
            bytes = RunStateSerde.encode(run.freeze());
        }
        return bytes;
    }
}
