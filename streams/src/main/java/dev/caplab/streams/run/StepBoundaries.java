package dev.caplab.streams.run;

import dev.caplab.analysis.verdict.Verdicts;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.lifecycle.RunOrigins;
import dev.caplab.streams.Micros;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.step.StepWindow;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.specific.SpecificRecord;

/**
 * What lifecycle events say about a run: its declared start (rules, load expression, environment), each declared
 * step's window and when its end was seen, and the run's end. Events may come in any order (a step end before its
 * start waits for it). Only samples advance a run's event time: lifecycle is small and often processed ahead of the
 * samples it brackets (a controller's StepEnded overtakes the host sampler's last batch), and a step closed on
 * lifecycle time would be judged without those samples; the wall clock closes a run whose samples stopped.
 */
final class StepBoundaries {

    private final TopologySettings settings;

    StepBoundaries(TopologySettings settings) {
        this.settings = settings;
    }

    void apply(RunState.Mutable run, SpecificRecord event, long nowMillis) {
        switch (event) {
            case RunStarted r -> {
                if (RunOrigins.declared(r)) { // our own inferred start, echoed, is no declaration
                    // Where a run's rules are accepted, whoever produced the start: a rule that cannot be judged
                    // refuses the whole start (dead-lettered by the run processor), never a step later.
                    r.getSloRules().forEach(Verdicts::accepted);
                    run.startedChanged |= !r.equals(run.started);
                    run.started = r;
                }
            }
            case StepStarted s -> {
                Map<String, Double> load = new TreeMap<>();
                long start = Micros.of(s.getStartedAt());
                s.getLoad().forEach((k, v) -> load.put(k.toString(), v));
                StepWindow previous = run.declared.get(s.getStepIndex());
                Long pendingEnd = run.pendingEnds.remove(s.getStepIndex());
                long end = previous != null ? previous.endMicros() : pendingEnd != null ? pendingEnd : StepWindow.OPEN;
                run.declared.put(s.getStepIndex(), new StepWindow(s.getStepIndex(), load, start,
                        end == StepWindow.OPEN ? end : Math.max(end, start), s.getWarmupMicros(), false));
            }
            case StepEnded e -> {
                StepWindow w = run.declared.get(e.getStepIndex());
                if (w == null) {
                    // Its StepStarted is still on its way (another request, a retry): the end waits for it.
                    run.pendingEnds.put(e.getStepIndex(), Micros.of(e.getEndedAt()));
                } else {
                    run.declared.put(w.index(), w.endingAt(Micros.of(e.getEndedAt())));
                }
                run.endSeenWallMillis.put(e.getStepIndex(), stepEndSeen(run, nowMillis));
            }
            case RunEnded e -> {
                run.runEndedMicros = Micros.of(e.getEndedAt());
                run.runEndSeenWallMillis = nowMillis;
                if (e.getAllSamplesSent()) {
                    waiveGrace(run, nowMillis);
                }
            }
            default -> {
                // Annotations and deletions do not affect aggregation; the sink stores them (a deleted run's rows stay
                // and every read leaves them out).
            }
        }
    }

    /**
     * When a step end counts as seen: now, unless the run's end was seen with its grace already passed or waived
     * ({@link #waiveGrace}); then nothing is left to wait for and the step counts as ending with the run.
     */
    private long stepEndSeen(RunState.Mutable run, long nowMillis) {
        boolean runGraceOver = run.runEndedMicros >= 0
                && run.runEndSeenWallMillis <= nowMillis - settings.grace().toMillis();
        return runGraceOver ? run.runEndSeenWallMillis : nowMillis;
    }

    /**
     * The sender vouched that every sample was acknowledged before the run's end: the grace, which waits for
     * stragglers, has nothing left to wait for. The ends seen so far count as seen a grace ago, so every step whose
     * end is known closes as soon as this task has read the samples sent before the end ({@link SamplesCatchUp}),
     * and the run with them; a sample still to come amends them as late data.
     */
    private void waiveGrace(RunState.Mutable run, long nowMillis) {
        long graceAgo = nowMillis - settings.grace().toMillis();
        run.runEndSeenWallMillis = graceAgo;
        run.endSeenWallMillis.replaceAll((step, seen) -> Math.min(seen, graceAgo));
    }
}
