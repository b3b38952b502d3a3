package dev.caplab.bench.pipeline;

import java.util.ArrayList;
import java.util.List;

/** When each sample batch was acknowledged (HTTP 204, i.e. after Kafka acks=all), filled by the sending threads. */
final class BatchLog {

    /** One acknowledged batch of a run's step. */
    record Ack(String runId, int step, int samples, long ackNanos) {
    }

    private final List<Ack> acks;

    BatchLog(int expected) {
        this.acks = new ArrayList<>(expected);
    }

    synchronized void acked(String runId, int step, int samples, long ackNanos) {
        acks.add(new Ack(runId, step, samples, ackNanos));
    }

    synchronized List<Ack> acks() {
        return List.copyOf(acks);
    }
}
