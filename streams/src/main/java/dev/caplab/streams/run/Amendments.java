package dev.caplab.streams.run;

import dev.caplab.schema.event.RunLateness;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.step.StepWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The amendment stage: re-emits what late samples changed — the baseline (and every closed step when its values
 * moved), the steps marked dirty, the unassigned seconds, and the run's lateness counts — at most once per run per
 * {@link TopologySettings#punctuateInterval()}, so a stream of late samples does not emit per sample.
 */
final class Amendments {

    private final TopologySettings settings;
    private final OutsideSteps outside;
    private final StepClosing closing;

    Amendments(TopologySettings settings, OutsideSteps outside, StepClosing closing) {
        this.settings = settings;
        this.outside = outside;
        this.closing = closing;
    }

    /** Whether late samples changed anything the run emitted that is not re-emitted yet. */
    static boolean pending(RunState.Mutable run) {
        return !run.dirtySteps.isEmpty() || run.baselineDirty || (run.runClosed && run.unassignedDirty)
                || run.lateSamples + run.beyondLateness != run.latenessEmitted;
    }

    /** When the run's next amendment may be emitted; {@link Long#MAX_VALUE} when none is pending. */
    long nextMillis(RunState.Mutable run) {
        return pending(run) ? run.lastAmendWallMillis + settings.punctuateInterval().toMillis() : Long.MAX_VALUE;
    }

    boolean due(RunState.Mutable run, long nowMillis) {
        return nowMillis >= nextMillis(run);
    }

    /** The amendment at {@code nowMillis}; the caller refits when fit points changed. */
    List<DerivedEvent> amend(RunState.Mutable run, List<StepWindow> timeline, long nowMillis) {
        run.lastAmendWallMillis = nowMillis;
        List<DerivedEvent> out = new ArrayList<>();
        int closed = Math.min(run.closedSteps, timeline.size());
        if (run.baselineDirty && closed > 0) {
            boolean[] changed = new boolean[1];
            out.addAll(outside.baseline(run, timeline.getFirst().startMicros(), changed));
            for (int i = 0; changed[0] && i < closed; i++) {
                run.dirtySteps.add(i);
            }
        }
        for (int i : List.copyOf(run.dirtySteps)) {
            if (i < closed) {
                out.addAll(closing.close(run, timeline.get(i)));
            }
        }
        run.dirtySteps.clear();
        if (run.runClosed && run.unassignedDirty) {
            out.addAll(outside.unassigned(run, timeline));
        }
        if (run.lateSamples + run.beyondLateness != run.latenessEmitted) {
            run.latenessEmitted = run.lateSamples + run.beyondLateness;
            run.latenessRevision++;
            out.add(new DerivedEvent.Lateness(RunLateness.newBuilder().setRunId(run.runId)
                    .setLateSamples(run.lateSamples).setBeyondLatenessSamples(run.beyondLateness)
                    .setUpdatedAt(Instant.ofEpochMilli(run.lastAmendWallMillis)).setVersion(run.latenessRevision)
                    .build()));
        }
        return out;
    }
}
