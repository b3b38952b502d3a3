package dev.caplab.streams.run;

import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.streams.errors.StreamsException;

/**
 * Which failures belong to the task rather than to the record being processed. A record that breaks caplab's own
 * code is dead-lettered so one input cannot stop the others; a migrated or corrupted task, a fenced or timed-out
 * transaction, a failing state store or an interrupt say nothing about the record, and dead-lettering them would
 * try to write inside a transaction that is already lost. Those are rethrown for Kafka Streams to handle (abort the
 * transaction, revive or migrate the task, reprocess from the last commit).
 */
final class TaskFailures {

    private TaskFailures() {
    }

    /** Whether {@code e} is the task's (rethrow it) rather than the record's (dead-letter the record). */
    static boolean ofTheTask(RuntimeException e) {
        return e instanceof StreamsException || e instanceof ProducerFencedException
                || e instanceof InvalidProducerEpochException || e instanceof InterruptException;
    }
}
