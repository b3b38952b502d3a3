package dev.caplab.streams.run;

import dev.caplab.streams.aggregate.BufferedSample;
import dev.caplab.streams.aggregate.BufferedSampleSerde;
import dev.caplab.streams.step.SampleKeys;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The samples of every open step, bucketed by time per input batch (see {@link SampleKeys}): {@code add} writes one
 * entry per batch and bucket, {@code take} removes and returns a time range, splitting the buckets a step boundary
 * cuts through.
 */
final class SampleBuffer {

    /** Target size of one buffer record; one sample within {@link RunLimits} is at most about 390 KiB. */
    static final long MAX_ENTRY_BYTES = 256 * 1024;
    private static final Comparator<BufferedSample> BY_TIME = Comparator.comparingLong(BufferedSample::timestampMicros);

    private final KeyValueStore<String, List<BufferedSample>> store;

    SampleBuffer(KeyValueStore<String, List<BufferedSample>> store) {
        this.store = store;
    }

    /**
     * Buffers the samples of the input batch at {@code partition}/{@code offset}, in batch order per bucket. A
     * bucket's entry is cut into chunks of about {@link #MAX_ENTRY_BYTES} (a chunk holds at least one sample, itself
     * bounded by {@link RunLimits}), so no buffer record approaches the changelog's message size whatever the batch.
     */
    void add(String runId, List<BufferedSample> samples, int partition, long offset) {
        Map<Long, List<BufferedSample>> buckets = new LinkedHashMap<>();
        for (BufferedSample s : samples) {
            buckets.computeIfAbsent(SampleKeys.bucketOf(s.timestampMicros()), b -> new ArrayList<>()).add(s);
        }
        buckets.forEach((bucket, inBucket) -> {
            int chunk = 0;
            List<BufferedSample> entry = new ArrayList<>();
            long bytes = 0;
            for (BufferedSample s : inBucket) {
                long size = BufferedSampleSerde.encodedBytes(s);
                if (!entry.isEmpty() && bytes + size > MAX_ENTRY_BYTES) {
                    store.put(SampleKeys.of(runId, bucket, partition, offset, chunk++), entry);
                    entry = new ArrayList<>();
                    bytes = 0;
                }
                entry.add(s);
                bytes += size;
            }
            store.put(SampleKeys.of(runId, bucket, partition, offset, chunk), entry);
        });
    }

    /**
     * Removes and returns the run's samples in [fromMicros, toMicros), ordered by time; equal times keep batch order
     * (key order, then position in the batch), so the result is the same on every replay.
     */
    List<BufferedSample> take(String runId, long fromMicros, long toMicros) {
        List<BufferedSample> taken = new ArrayList<>();
        for (KeyValue<String, List<BufferedSample>> entry : entries(SampleKeys.lower(runId, fromMicros),
                SampleKeys.upperExclusive(runId, toMicros))) {
            List<BufferedSample> rest = new ArrayList<>();
            for (BufferedSample s : entry.value) {
                (s.timestampMicros() >= fromMicros && s.timestampMicros() < toMicros ? taken : rest).add(s);
            }
            if (rest.size() != entry.value.size()) {
                // A null value is a tombstone without delete()'s read of the old value.
                store.put(entry.key, rest.isEmpty() ? null : rest);
            }
        }
        taken.sort(BY_TIME);
        return taken;
    }

    /** Every sample still buffered for the run, ordered by time, left in place. */
    List<BufferedSample> all(String runId) {
        List<BufferedSample> out = new ArrayList<>();
        entries(SampleKeys.runLower(runId), SampleKeys.runUpper(runId)).forEach(e -> out.addAll(e.value));
        out.sort(BY_TIME);
        return out;
    }

    /** Deletes every sample still buffered for the run (when its state expires). */
    void deleteRun(String runId) {
        for (KeyValue<String, List<BufferedSample>> e : entries(SampleKeys.runLower(runId), SampleKeys.runUpper(runId))) {
            store.put(e.key, null);
        }
    }

    private List<KeyValue<String, List<BufferedSample>>> entries(String from, String to) {
        List<KeyValue<String, List<BufferedSample>>> out = new ArrayList<>();
        try (KeyValueIterator<String, List<BufferedSample>> it = store.range(from, to)) {
            it.forEachRemaining(out::add);
        }
        return out;
    }
}
