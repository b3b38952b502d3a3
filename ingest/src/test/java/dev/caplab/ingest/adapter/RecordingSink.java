package dev.caplab.ingest.adapter;

import dev.caplab.ingest.publish.SampleSink;
import dev.caplab.schema.event.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** A SampleSink that keeps what it is given, for tests. */
public final class RecordingSink implements SampleSink {

    /** One publish call. */
    public record Batch(String runId, String adapter, List<Sample> samples) {
    }

    private final List<Batch> batches = new ArrayList<>();

    @Override
    public synchronized CompletableFuture<Void> publish(String runId, String adapter, List<Sample> samples) {
        batches.add(new Batch(runId, adapter, List.copyOf(samples)));
        return CompletableFuture.completedFuture(null);
    }

    public synchronized List<Batch> batches() {
        return List.copyOf(batches);
    }

    public synchronized List<Sample> samples() {
        return batches.stream().flatMap(b -> b.samples().stream()).toList();
    }
}
