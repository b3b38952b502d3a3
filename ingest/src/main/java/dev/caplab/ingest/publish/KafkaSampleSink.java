package dev.caplab.ingest.publish;

import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes samples to {@code caplab.samples} as SampleBatch records keyed by run id, at most
 * {@link SampleChunks#MAX_SAMPLES} and {@link IngestLimits#maxRecordBytes()} per record, with the exporter recipes' derived
 * series ({@link SampleBatches}); the future completes when the broker acknowledged every chunk.
 */
public final class KafkaSampleSink implements SampleSink, AutoCloseable {

    private final Producer<String, SampleBatch> producer;
    private final Clock clock;
    private final int maxSamplesPerBatch;

    public KafkaSampleSink(ProducerSettings settings) {
        this(new KafkaProducer<>(settings.asProperties(), new StringSerializer(), EventSerdes.sampleBatch()),
                Clock.systemUTC(), SampleChunks.MAX_SAMPLES);
    }

    KafkaSampleSink(Producer<String, SampleBatch> producer, Clock clock, int maxSamplesPerBatch) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.maxSamplesPerBatch = maxSamplesPerBatch;
    }

    @Override
    public CompletableFuture<Void> publish(String runId, String adapter, List<Sample> samples) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(adapter, "adapter");
        if (samples.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        List<SampleBatch> batches = SampleBatches.of(runId, adapter, clock.instant(), samples, SampleBatches.EXPORTER_RECIPES,
                maxSamplesPerBatch, IngestLimits.DEFAULTS.maxRecordBytes());
        CompletableFuture<?>[] acks = new CompletableFuture<?>[batches.size()];
        for (int i = 0; i < acks.length; i++) {
            SampleBatch batch = batches.get(i);
            acks[i] = KafkaSends.send(producer, TopicCatalog.SAMPLES, runId, batch,
                    batch.getSamples().size() + " samples from " + adapter);
        }
        return CompletableFuture.allOf(acks);
    }

    /** Sends buffered batches now; publishing callers normally just wait on their futures. */
    public void flush() {
        producer.flush();
    }

    @Override
    public void close() {
        producer.close();
    }
}
