package dev.caplab.streams.run;

import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.streams.input.InputEvent;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Whether a task has read the samples sent before a run's latest step or run end: a close on the wall clock (a grace
 * after an end, at once for an end that vouched for its samples) waits for it.
 *
 * <p>Kafka Streams merges the lifecycle and samples topics in timestamp order only among the records a task has
 * fetched. Under load it reads the lifecycle partition ahead, seconds newer than its samples partition whatever
 * {@code max.task.idle.ms} says, and a run would close every step before reading its samples: "no observation",
 * a STEP_FAILED alert per step, conclusions wrong until amended.
 *
 * <p>An end that came through ingest's HTTP API carries {@link TopicCatalog#SAMPLES_MARK_HEADER}: the same request
 * put an empty SampleBatch of the run, stamped like the end, in the samples topic after the run's samples. Such an
 * end waits for that mark, and then every sample sent before it has been read, however far behind the samples
 * partition is. Waiting on anything less (a samples record stamped a second past the end, nothing read for a while)
 * still closes runs before their samples under load: a task whose samples partition is empty in the task may still
 * have it full on the broker.
 *
 * <p>Any other end (a producer of its own, an old topic replayed) waits for a samples record stamped
 * {@link #MARGIN_MILLIS} past it, or for the task to read nothing at all for {@link #IDLE_TICKS} wall-clock ticks
 * and {@link #IDLE_MILLIS}. Kept in memory per task: after a restart a run waits as it did before, on the wall clock
 * alone.
 */
final class SamplesCatchUp {

    static final long MARGIN_MILLIS = 1_000;
    static final long IDLE_MILLIS = 1_000;
    static final int IDLE_TICKS = 5;

    private final Map<String, Long> endStamps = new HashMap<>();
    private final Map<String, Long> markedEnds = new HashMap<>();
    private final Map<String, Long> runSamplesStamps = new HashMap<>();
    private long samplesStamp = Long.MIN_VALUE;
    private long lastReadAt;
    private int ticksSinceRead;

    SamplesCatchUp(long nowMillis) {
        this.lastReadAt = nowMillis;
    }

    /** {@code record} of {@code runId} was read at {@code nowMillis}: a samples record, an end, or other lifecycle. */
    void observe(String runId, Record<String, InputEvent> record, long nowMillis) {
        read(nowMillis);
        switch (record.value()) {
            case InputEvent.Samples s -> samplesRead(runId, record.timestamp());
            case InputEvent.Lifecycle l when l.event() instanceof StepEnded || l.event() instanceof RunEnded ->
                    endRead(runId, record.timestamp(),
                            record.headers().lastHeader(TopicCatalog.SAMPLES_MARK_HEADER) != null);
            default -> {
                // other lifecycle events close nothing
            }
        }
    }

    /** A record of either topic was read at {@code nowMillis}. */
    void read(long nowMillis) {
        lastReadAt = nowMillis;
        ticksSinceRead = 0;
    }

    /** The task's wall-clock punctuation ran. */
    void tick() {
        ticksSinceRead++;
    }

    /** A samples record of {@code runId} (a mark or not) stamped {@code stampMillis} was read. */
    void samplesRead(String runId, long stampMillis) {
        samplesStamp = Math.max(samplesStamp, stampMillis);
        runSamplesStamps.merge(runId, stampMillis, Math::max);
    }

    /** A step or run end of {@code runId}, stamped {@code stampMillis}, was read; {@code marked}: it has a mark. */
    void endRead(String runId, long stampMillis, boolean marked) {
        (marked ? markedEnds : endStamps).merge(runId, stampMillis, Math::max);
    }

    /** Whether the samples sent before {@code runId}'s latest end have been read, as far as this task can tell. */
    boolean caughtUp(String runId, long nowMillis) {
        Long marked = markedEnds.get(runId);
        if (marked != null && runSamplesStamps.getOrDefault(runId, Long.MIN_VALUE) < marked) {
            return false;
        }
        Long end = endStamps.get(runId);
        return end == null || samplesStamp >= end + MARGIN_MILLIS
                || ticksSinceRead >= IDLE_TICKS && nowMillis - lastReadAt >= IDLE_MILLIS;
    }

    /** The run closed or expired: nothing of it waits any more. */
    void forget(String runId) {
        endStamps.remove(runId);
        markedEnds.remove(runId);
        runSamplesStamps.remove(runId);
    }
}
