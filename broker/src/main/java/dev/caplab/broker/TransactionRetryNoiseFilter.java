package dev.caplab.broker;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.slf4j.Marker;

/**
 * Drops the log lines Kafka writes for produce requests that transactions v2 turns away, by design and retriably,
 * while the same producer's previous transaction is still completing — and nothing else.
 *
 * <p>Under {@code exactly_once_v2} on Kafka 4.x every commit bumps the producer epoch, and the next transaction's
 * first batch to a partition may arrive before the coordinator has written the previous commit's markers: the
 * broker answers {@code CONCURRENT_TRANSACTIONS} (KAFKA-18662, apache/kafka#18733), and the batches already in flight
 * behind it, whose sequence is not 0 for the new epoch, a retriable {@code OutOfOrderSequenceException} "… Expected
 * sequence 0 for transactions v2 idempotent producer with no existing state" (KAFKA-18202, apache/kafka#19902). The
 * producer retries them all and nothing is lost or duplicated (PipelineIT, CrashRecoveryIT count exactly), but the
 * in-process broker logs each rejected append at ERROR ({@code kafka.server.ReplicaManager}) and the producer each
 * retry at WARN ({@code …producer.internals.Sender}). It shows at startup: the first commit's markers are the slow
 * ones (the coordinator's marker connection is opened then) while a backlog keeps several batches in flight. No
 * caplab setting causes it; one in-flight request per connection would avoid it at a throughput cost on every send.
 *
 * <p>Any other append error, and a retry for any other error, is still logged; a retry that never succeeds ends in
 * the producer's delivery timeout, which Kafka Streams logs at ERROR.
 */
public final class TransactionRetryNoiseFilter extends TurboFilter {

    static final String REPLICA_MANAGER = "kafka.server.ReplicaManager";
    static final String SENDER = "org.apache.kafka.clients.producer.internals.Sender";
    /** What the broker says when it rejects a non-zero first sequence under transactions v2 (KAFKA-18202). */
    static final String TV2_NO_STATE = "for transactions v2 idempotent producer with no existing state";

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params,
            Throwable t) {
        String name = logger.getName();
        if (name.equals(REPLICA_MANAGER)) {
            return t instanceof OutOfOrderSequenceException && t.getMessage() != null
                    && t.getMessage().contains(TV2_NO_STATE) ? FilterReply.DENY : FilterReply.NEUTRAL;
        }
        // Kafka's LogContext hands logback the message already formatted, so the error is in the text.
        if (name.equals(SENDER) && format != null && format.contains("retrying")) {
            return format.contains("Error: CONCURRENT_TRANSACTIONS")
                    || format.contains("Error: OUT_OF_ORDER_SEQUENCE_NUMBER") ? FilterReply.DENY : FilterReply.NEUTRAL;
        }
        return FilterReply.NEUTRAL;
    }
}
