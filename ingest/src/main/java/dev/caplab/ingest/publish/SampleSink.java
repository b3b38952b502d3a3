package dev.caplab.ingest.publish;

import dev.caplab.schema.event.Sample;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Where adapters hand their samples: the Kafka publisher in production, an in-memory list in unit tests.
 * The future completes only when the samples are durably accepted (for Kafka: acknowledged by the broker).
 */
public interface SampleSink {

    /** Publishes samples of one run, produced by the named adapter (e.g. "locust-csv"). */
    CompletableFuture<Void> publish(String runId, String adapter, List<Sample> samples);
}
