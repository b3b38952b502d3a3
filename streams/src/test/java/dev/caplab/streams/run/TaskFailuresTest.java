package dev.caplab.streams.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.errors.TaskMigratedException;
import org.junit.jupiter.api.Test;

/** The failures a run processor rethrows to Kafka Streams instead of dead-lettering the record it was processing. */
class TaskFailuresTest {

    @Test
    void aLostTransactionOrTaskIsTheTasksNotTheRecords() {
        // a transaction that timed out under load surfaces as the producer's bumped epoch, then as a migrated task
        assertThat(TaskFailures.ofTheTask(new InvalidProducerEpochException("epoch"))).isTrue();
        assertThat(TaskFailures.ofTheTask(new TaskMigratedException("migrated"))).isTrue();
        assertThat(TaskFailures.ofTheTask(new ProducerFencedException("fenced"))).isTrue();
        assertThat(TaskFailures.ofTheTask(new ProcessorStateException("store"))).isTrue();
    }

    @Test
    void aFailureOfCaplabsOwnCodeOnARecordIsTheRecords() {
        assertThat(TaskFailures.ofTheTask(new IllegalArgumentException("bad load"))).isFalse();
        assertThat(TaskFailures.ofTheTask(new IllegalStateException("bug"))).isFalse();
        assertThat(TaskFailures.ofTheTask(new ArithmeticException("/ by zero"))).isFalse();
        assertThat(TaskFailures.ofTheTask(new SerializationException("a derived record too large"))).isFalse();
    }
}
