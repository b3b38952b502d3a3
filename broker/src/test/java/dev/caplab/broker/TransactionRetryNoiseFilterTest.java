package dev.caplab.broker;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.utils.internals.LogContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The lines are the ones the in-process broker and a Streams producer wrote at startup under a backlog. */
class TransactionRetryNoiseFilterTest {

    // The JVM's logback: Kafka's LogContext logs through LoggerFactory, as the producer does.
    private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    private final TransactionRetryNoiseFilter filter = new TransactionRetryNoiseFilter();
    private final ListAppender<ILoggingEvent> out = new ListAppender<>();

    @BeforeEach
    void filtered() {
        filter.setContext(context);
        filter.start();
        context.addTurboFilter(filter);
        out.setContext(context);
        out.start();
        context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).addAppender(out);
    }

    @AfterEach
    void unfiltered() {
        context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).detachAppender(out);
        context.getTurboFilterList().remove(filter);
    }

    @Test
    void theRetriedTransactionsV2RejectionsAreDropped() {
        broker().error("[ReplicaManager broker=1] Error processing append operation on partition "
                + "x:caplab-streams-caplab-sample-buffer-changelog-0", new OutOfOrderSequenceException("Invalid "
                + "sequence number for producer 0 at offset 2001 in partition caplab-streams-caplab-sample-buffer-"
                + "changelog-0: 391 (incoming seq. number). Expected sequence 0 for transactions v2 idempotent "
                + "producer with no existing state."));
        producerRetry("CONCURRENT_TRANSACTIONS");
        producerRetry("OUT_OF_ORDER_SEQUENCE_NUMBER");
        assertThat(out.list).isEmpty();
    }

    @Test
    void everyOtherAppendErrorAndRetryIsStillLogged() {
        broker().error("[ReplicaManager broker=1] Error processing append operation on partition p-0",
                new OutOfOrderSequenceException("Out of order sequence number for producer 7 at offset 9 in "
                        + "partition p-0: 51 (incoming seq. number), 49 (current end sequence number)"));
        broker().error("[ReplicaManager broker=1] Error processing append operation on partition p-0",
                new CorruptRecordException("record is corrupt"));
        producerRetry("NOT_LEADER_OR_FOLLOWER");
        context.getLogger("org.apache.kafka.streams.processor.internals.RecordCollectorImpl")
                .error("Error encountered sending record", new OutOfOrderSequenceException("expected sequence 0 "
                        + "for transactions v2 idempotent producer with no existing state"));
        assertThat(out.list).hasSize(4);
    }

    private Logger broker() {
        return context.getLogger(TransactionRetryNoiseFilter.REPLICA_MANAGER);
    }

    /** As the producer's Sender logs it: through a LogContext that prefixes the client id. */
    private void producerRetry(String error) {
        new LogContext("[Producer clientId=caplab-streams-1-StreamThread-1-producer] ")
                .logger(TransactionRetryNoiseFilter.SENDER)
                .warn("Got error produce response with correlation id {} on topic-partition {}, retrying ({} "
                        + "attempts left). Error: {}", 52, "caplab-streams-caplab-sample-buffer-changelog-0",
                        2147483646, error);
    }
}
