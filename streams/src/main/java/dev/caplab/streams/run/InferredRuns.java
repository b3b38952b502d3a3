package dev.caplab.streams.run;

import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.RunStatus;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.lifecycle.RunOrigins;
import dev.caplab.schema.limits.SampleShape;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.streams.Micros;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.input.InputEvent;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs without ceremony: a run whose samples come without a {@code RunStarted} gets an inferred one
 * ({@link InferredStart}) published to the lifecycle topic, so the sink writes its row like any other; it ends after
 * {@link TopologySettings#runIdleEnd()} without input (a declared run after {@link TopologySettings#allowedLateness()})
 * with a {@code RunEnded} published the same way.
 *
 * <p>The sink ranks a declared start above an inferred one whatever their offsets ({@code RowMapping}), and writes a
 * {@code RunEnded} as a copy of the run's row at that moment; the lifecycle topic is one partition per run, written in
 * order. So whenever a start lands on the row after its end did (a declared start after an idle end or after an early
 * {@code RunEnded}, an earlier sample widening an ended inferred run), the end known here is published again after it,
 * and the row ends up with the declared metadata and the end, in whatever order the inputs came.
 *
 * <p>Kept per run in {@link #STORE}: the last inferred start published and the last end seen, as lifecycle bytes.
 */
public final class InferredRuns {

    private static final Logger LOG = LoggerFactory.getLogger(InferredRuns.class);

    /** Run id → last inferred RunStarted published and last RunEnded seen; deleted when the run's state expires. */
    public static final String STORE = "caplab-inferred-runs";

    private final KeyValueStore<String, byte[]> store;
    private final TopologySettings settings;
    private final SampleShape shape;

    InferredRuns(KeyValueStore<String, byte[]> store, TopologySettings settings) {
        this.store = store;
        this.settings = settings;
        this.shape = new SampleShape(settings.limits().sample());
    }

    /** Hook after a record changed {@code run}: the lifecycle events to publish for it (usually none). */
    List<DerivedEvent> onInput(RunState.Mutable run, InputEvent input) {
        boolean relevant = switch (input) {
            case InputEvent.Samples s -> run.started == null;
            case InputEvent.Lifecycle l -> l.event() instanceof RunStarted || l.event() instanceof RunEnded;
            case InputEvent.Poison p -> false;
        };
        if (!relevant) {
            return List.of(); // a declared run's samples: no store read on the hot path
        }
        final Known known = load(run.runId);
        List<DerivedEvent> out = new ArrayList<>();
        switch (input) {
            case InputEvent.Samples s when run.started == null -> {
                List<Sample> accepted = s.batch().getSamples().stream()
                        .filter(x -> shape.problem(x).isEmpty()).toList();
                RunStarted next = InferredStart.merge(known.start, run.runId, s.batch().getAdapter().toString(),
                        accepted);
                if (next != null && !next.equals(known.start)) {
                    LOG.info("run {}: no run start; inferred one at {} ({} on {})", run.runId, next.getStartedAt(),
                            next.getSut().getName(), next.getEnvironment().getProvider());
                    out.add(new DerivedEvent.Lifecycle(next));
                    endAgain(known, out);
                    save(run.runId, new Known(next, known.end));
                }
            }
            case InputEvent.Lifecycle l when l.event() instanceof RunStarted r && RunOrigins.declared(r) ->
                    endAgain(known, r, out);
            case InputEvent.Lifecycle l when l.event() instanceof RunEnded e && !e.equals(known.end) -> {
                // not our own end coming back: an end that reached the sink before our inferred start is repeated
                if (run.started == null && known.start != null) {
                    out.add(new DerivedEvent.Lifecycle(e));
                }
                save(run.runId, new Known(known.start, e));
            }
            default -> {
                // other lifecycle events, declared runs' samples and our own events coming back change nothing here
            }
        }
        return out;
    }

    /** How long the run may go without input before it is ended at its last sample. */
    Duration idleEnd(RunState.Mutable run) {
        return run.started == null ? settings.runIdleEnd() : settings.allowedLateness();
    }

    /** Hook when the wall clock ended {@code run} at its last sample: the RunEnded to publish. */
    List<DerivedEvent> endedIdle(RunState.Mutable run) {
        // a run that only ever had lifecycle input has no sample time: it ended at its last input
        long endedMicros = run.runEndedMicros > 0 ? run.runEndedMicros : run.lastInputWallMillis * 1000;
        RunEnded end = RunEnded.newBuilder().setRunId(run.runId).setEndedAt(Micros.toInstant(endedMicros))
                .setStatus(RunStatus.COMPLETED).setReason("no input for " + idleEnd(run) + "; ended by caplab at its "
                        + "last sample").build();
        save(run.runId, new Known(load(run.runId).start, end));
        return List.of(new DerivedEvent.Lifecycle(end));
    }

    /** Hook when the run's state expires. */
    void forget(String runId) {
        store.delete(runId);
    }

    private static void endAgain(Known known, List<DerivedEvent> out) {
        if (known.end != null) {
            out.add(new DerivedEvent.Lifecycle(known.end));
        }
    }

    /** The known end after a declared start; never before that start (a run cannot end before it began). */
    private static void endAgain(Known known, RunStarted declared, List<DerivedEvent> out) {
        if (known.end != null) {
            RunEnded end = RunEnded.newBuilder(known.end).build();
            if (end.getEndedAt().isBefore(declared.getStartedAt())) {
                end.setEndedAt(declared.getStartedAt());
            }
            out.add(new DerivedEvent.Lifecycle(end));
        }
    }

    private record Known(RunStarted start, RunEnded end) {
    }

    private Known load(String runId) {
        byte[] bytes = store.get(runId);
        if (bytes == null) {
            return new Known(null, null);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        return new Known((RunStarted) read(b), (RunEnded) read(b));
    }

    private void save(String runId, Known known) {
        byte[] start = write(known.start);
        byte[] end = write(known.end);
        ByteBuffer b = ByteBuffer.allocate(8 + len(start) + len(end));
        put(b, start);
        put(b, end);
        store.put(runId, b.array());
    }

    private static byte[] write(SpecificRecord r) {
        return r == null ? null : EventSerdes.lifecycle().serialize(null, r);
    }

    private static SpecificRecord read(ByteBuffer b) {
        int n = b.getInt();
        if (n < 0) {
            return null;
        }
        byte[] bytes = new byte[n];
        b.get(bytes);
        return EventSerdes.lifecycle().deserialize(null, bytes);
    }

    private static int len(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
    }

    private static void put(ByteBuffer b, byte[] bytes) {
        b.putInt(bytes == null ? -1 : bytes.length);
        if (bytes != null) {
            b.put(bytes);
        }
    }
}
