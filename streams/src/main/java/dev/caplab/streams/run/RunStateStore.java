package dev.caplab.streams.run;

import java.util.function.BiConsumer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The run-state store holds encoded bytes ({@link RunStateSerde}) so the processor encodes a state once, checks its
 * size against {@link RunLimits#maxStateBytes()} and stores exactly the bytes it checked.
 */
final class RunStateStore {

    private final KeyValueStore<String, byte[]> store;
    private final RunLimits limits;

    RunStateStore(KeyValueStore<String, byte[]> store, RunLimits limits) {
        this.store = store;
        this.limits = limits;
    }

    RunState get(String runId) {
        byte[] b = store.get(runId);
        return b == null ? null : RunStateSerde.decode(b, limits.maxLevelChanges());
    }

    void put(String runId, byte[] encoded) {
        store.put(runId, encoded);
    }

    /** Deletes the run's state (a tombstone on the changelog). */
    void delete(String runId) {
        store.put(runId, null);
    }

    /** Every stored run; one that cannot be decoded is handed over as null with its id. */
    void forEach(BiConsumer<String, RunState> action) {
        try (KeyValueIterator<String, byte[]> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<String, byte[]> kv = it.next();
                RunState s;
                try {
                    s = RunStateSerde.decode(kv.value, limits.maxLevelChanges());
                } catch (RuntimeException e) {
                    s = null;
                }
                action.accept(kv.key, s);
            }
        }
    }
}
