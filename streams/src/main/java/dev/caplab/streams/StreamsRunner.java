package dev.caplab.streams;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs the caplab topology: build, configure, start; {@link #close()} stops it gracefully. */
public final class StreamsRunner implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StreamsRunner.class);
    private final KafkaStreams streams;
    private final CountDownLatch running;

    private StreamsRunner(KafkaStreams streams, CountDownLatch running) {
        this.streams = streams;
        this.running = running;
    }

    /** Starts the topology; returns once it was started (not necessarily RUNNING yet). */
    public static StreamsRunner start(StreamsSettings settings) {
        KafkaStreams streams = new KafkaStreams(CaplabTopology.build(new StreamsBuilder(), settings.topology())
                .build(), CaplabStreamsConfig.properties(settings));
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("caplab streams thread failed, shutting the client down: {}", e.toString(), e);
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse
                    .SHUTDOWN_CLIENT;
        });
        CountDownLatch running = new CountDownLatch(1);
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING) {
                running.countDown();
            }
        });
        streams.start();
        return new StreamsRunner(streams, running);
    }

    /** Waits until the application is RUNNING, or throws after {@code timeout}. */
    public StreamsRunner awaitRunning(Duration timeout) throws InterruptedException {
        if (!running.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("caplab streams not RUNNING after " + timeout + ", state " + streams.state());
        }
        return this;
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    @Override
    public void close() {
        streams.close(Duration.ofSeconds(30));
    }
}
