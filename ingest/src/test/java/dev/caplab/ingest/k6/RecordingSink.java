package dev.caplab.ingest.k6;

import dev.caplab.ingest.publish.SampleSink;
import dev.caplab.schema.event.Sample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** An in-memory sink for unit tests: remembers what each run received. */
final class RecordingSink implements SampleSink {

    final Map<String, List<Sample>> byRun = new LinkedHashMap<>();
    int publishCalls;

    @Override
    public synchronized CompletableFuture<Void> publish(String runId, String adapter, List<Sample> samples) {
        publishCalls++;
        byRun.computeIfAbsent(runId, r -> new ArrayList<>()).addAll(samples);
        return CompletableFuture.completedFuture(null);
    }
}
