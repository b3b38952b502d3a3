package dev.caplab.ingest.http;

import dev.caplab.ingest.publish.LifecyclePublisher;
import dev.caplab.ingest.publish.PublishFailedException;
import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.ingest.publish.SampleSink;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.avro.specific.SpecificRecord;

/**
 * Publishes and blocks until Kafka acknowledged, so an HTTP 2xx always means the data is in Kafka. A timeout or a
 * broker error becomes {@link KafkaUnavailableException} (503): the client retries, at-least-once.
 */
public final class AckedPublisher {

    private final SampleSink samples;
    private final LifecyclePublisher lifecycle;
    private final Duration ackTimeout;

    public AckedPublisher(SampleSink samples, LifecyclePublisher lifecycle, Duration ackTimeout) {
        this.samples = samples;
        this.lifecycle = lifecycle;
        this.ackTimeout = ackTimeout;
    }

    public void samples(RoutedSamples routed, String adapter) {
        await(routed.publishTo(samples, adapter), routed.sampleCount() + " samples");
    }

    public void lifecycle(List<SpecificRecord> events) {
        await(CompletableFuture.allOf(events.stream().map(lifecycle::publish).toArray(CompletableFuture[]::new)),
                events.size() + " lifecycle events");
    }

    private void await(CompletableFuture<?> acked, String what) {
        try {
            acked.get(ackTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new KafkaUnavailableException("Kafka did not acknowledge " + what + " within " + ackTimeout, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof PublishFailedException p ? p : e;
            throw new KafkaUnavailableException(cause.getMessage(), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaUnavailableException("interrupted while waiting for Kafka to acknowledge " + what, e);
        }
    }

    /** Kafka did not take the data; nothing was acknowledged to the client. */
    public static final class KafkaUnavailableException extends RuntimeException {
        KafkaUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
