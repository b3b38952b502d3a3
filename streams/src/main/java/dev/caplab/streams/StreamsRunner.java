package dev.caplab.streams;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs the caplab topology: build, configure, start; {@link #close()} stops it gracefully. */
public final class StreamsRunner implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StreamsRunner.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    private final KafkaStreams streams;
    private final CountDownLatch running;

    private StreamsRunner(KafkaStreams streams, CountDownLatch running) {
        this.streams = streams;
        this.running = running;
    }

    /** Starts the topology; returns once it was started (not necessarily RUNNING yet). */
    public static StreamsRunner start(StreamsSettings settings) {
        KafkaStreams streams = new KafkaStreams(CaplabTopology.build(new StreamsBuilder(), settings.topology(),
                settings.generation()).build(), CaplabStreamsConfig.properties(settings));
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

    /** Input records the stream threads have processed so far (thread metric {@code process-total}). */
    public long recordsProcessed() {
        return metricTotal("stream-thread-metrics", "process-total", null);
    }

    /** Records the application's producers sent to {@code topic} so far (producer metric {@code record-send-total}). */
    public long recordsSentTo(String topic) {
        return metricTotal("producer-topic-metrics", "record-send-total", topic);
    }

    private long metricTotal(String group, String name, String topic) {
        return Math.round(streams.metrics().values().stream()
                .filter(m -> m.metricName().group().equals(group) && m.metricName().name().equals(name)
                        && (topic == null || topic.equals(m.metricName().tags().get("topic"))))
                .mapToDouble(m -> ((Number) m.metricValue()).doubleValue()).sum());
    }

    /**
     * Closes for good, as a finished rebuild does: leaves the group at once (Streams members otherwise stay until
     * their session times out, so the group could not be deleted) and deletes the local state.
     */
    public void closeForGood() {
        streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(CLOSE_TIMEOUT));
        streams.cleanUp();
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    @Override
    public void close() {
        streams.close(CLOSE_TIMEOUT);
    }
}
