package dev.caplab.streams;

import dev.caplab.schema.health.RoleStatus;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the caplab topology: build, configure, start; {@link #close()} stops it gracefully. A stream thread that dies
 * of an uncaught error is replaced (REPLACE_THREAD) rather than shutting the client down; if the client ends in
 * ERROR or NOT_RUNNING without being closed, {@link #status()} says so, for health checks and launchers.
 */
public final class StreamsRunner implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StreamsRunner.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    private final KafkaStreams streams;
    private final CountDownLatch running;
    private final AtomicLong threadsReplaced;
    private volatile boolean closing;

    private StreamsRunner(KafkaStreams streams, CountDownLatch running, AtomicLong threadsReplaced) {
        this.streams = streams;
        this.running = running;
        this.threadsReplaced = threadsReplaced;
    }

    /** Starts the topology; returns once it was started (not necessarily RUNNING yet). */
    public static StreamsRunner start(StreamsSettings settings) {
        KafkaStreams streams = new KafkaStreams(CaplabTopology.build(new StreamsBuilder(), settings.topology(),
                settings.generation()).build(), CaplabStreamsConfig.properties(settings));
        AtomicLong replaced = new AtomicLong();
        // One failing record must not stop every run: the task restarts from its last commit on a new thread.
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("caplab streams thread failed ({} replaced so far), replacing it: {}", replaced.incrementAndGet(),
                    e.toString(), e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        CountDownLatch running = new CountDownLatch(1);
        StreamsRunner runner = new StreamsRunner(streams, running, replaced);
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING) {
                running.countDown();
            }
            if ((now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) && !runner.closing) {
                LOG.error("CAPLAB STREAMS STOPPED: state {} (was {}); no run is stepped, judged or fitted", now,
                        before);
            }
        });
        streams.start();
        return runner;
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

    /**
     * A RocksDB property summed over every state store (group {@code stream-state-metrics}, recorded at INFO), e.g.
     * {@code total-sst-files-size} or {@code size-all-mem-tables}, in bytes.
     */
    public long stateStoreBytes(String rocksDbMetric) {
        return metricTotal("stream-state-metrics", rocksDbMetric, null);
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
        closing = true;
        streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(CLOSE_TIMEOUT));
        streams.cleanUp();
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    /** Down when the client reached ERROR, or NOT_RUNNING / PENDING_* without {@link #close()}. */
    public RoleStatus status() {
        KafkaStreams.State state = streams.state();
        boolean up = closing || switch (state) {
            case CREATED, REBALANCING, RUNNING -> true;
            case PENDING_SHUTDOWN, NOT_RUNNING, PENDING_ERROR, ERROR -> false;
        };
        return new RoleStatus("streams", up, state + (threadsReplaced.get() == 0 ? ""
                : ", " + threadsReplaced.get() + " failed threads replaced"));
    }

    @Override
    public void close() {
        closing = true;
        streams.close(CLOSE_TIMEOUT);
    }
}
