package dev.caplab.ingest.http;

import dev.caplab.ingest.publish.TransactionalPublisher;
import dev.caplab.schema.kafka.KafkaClientSecurity;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the HTTP ingest endpoints ({@code caplab.ingest.*}): where Kafka is, the largest request body accepted
 * (compressed and decompressed), how long a request waits for Kafka's ack, how long a transaction waits for writes
 * already received to join it ({@code group-wait}, {@link dev.caplab.ingest.publish.GroupCommit}), how many
 * transactions commit at once before requests share one ({@code transactions-in-flight}), and the SASL/PLAIN login of
 * its producers ({@code kafka-user}, {@code kafka-password}; none: PLAINTEXT; with {@code kafka-ca-file}, the PEM
 * certificate the broker presents, over SASL_SSL). Who may write is
 * {@code caplab.access.*}, shared with the query API.
 */
@ConfigurationProperties("caplab.ingest")
public record IngestProperties(String bootstrapServers, Long maxBodyBytes, Duration ackTimeout, Duration groupWait,
        Integer transactionsInFlight, String kafkaUser, String kafkaPassword, String kafkaCaFile) {

    public static final String DEFAULT_BOOTSTRAP_SERVERS = "127.0.0.1:9092";
    /** 64 MiB: a k6 or Telegraf flush of 5,000 lines is about 1 MiB; this leaves room without inviting abuse. */
    public static final long DEFAULT_MAX_BODY_BYTES = 64L * 1024 * 1024;
    public static final Duration DEFAULT_ACK_TIMEOUT = Duration.ofSeconds(30);
    /**
     * None: a group takes the requests already queued while the previous transaction commits, and no finished request
     * waits for one still being parsed. A wait makes two clients share more often, but it holds each
     * acknowledgement back while a 5,000-line body is parsed, which makes {@code /write} slower (bench/README.md).
     * Raise it for many clients sending small bodies.
     */
    public static final Duration DEFAULT_GROUP_WAIT = Duration.ZERO;
    /**
     * Two: two clients never queue one request's commit behind the other's, which with one in flight would make a
     * request wait for the other's transaction before its own (bench/README.md, "Transactions in flight"); three or
     * more clients still share transactions.
     */
    public static final int DEFAULT_TRANSACTIONS_IN_FLIGHT = 2;

    public IngestProperties {
        bootstrapServers = bootstrapServers == null || bootstrapServers.isBlank() ? DEFAULT_BOOTSTRAP_SERVERS
                : bootstrapServers;
        maxBodyBytes = maxBodyBytes == null ? DEFAULT_MAX_BODY_BYTES : maxBodyBytes;
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("caplab.ingest.max-body-bytes must be >= 1, was " + maxBodyBytes);
        }
        ackTimeout = ackTimeout == null ? DEFAULT_ACK_TIMEOUT : ackTimeout;
        if (ackTimeout.isNegative() || ackTimeout.isZero()) {
            throw new IllegalArgumentException("caplab.ingest.ack-timeout must be positive, was " + ackTimeout);
        }
        groupWait = groupWait == null ? DEFAULT_GROUP_WAIT : groupWait;
        if (groupWait.isNegative() || groupWait.compareTo(ackTimeout) >= 0) {
            throw new IllegalArgumentException("caplab.ingest.group-wait must be within 0 and the ack timeout "
                    + ackTimeout + ", was " + groupWait);
        }
        transactionsInFlight = transactionsInFlight == null ? DEFAULT_TRANSACTIONS_IN_FLIGHT : transactionsInFlight;
        if (transactionsInFlight < 1 || transactionsInFlight > TransactionalPublisher.DEFAULT_POOL_SIZE) {
            throw new IllegalArgumentException("caplab.ingest.transactions-in-flight must be within 1 and "
                    + TransactionalPublisher.DEFAULT_POOL_SIZE + ", was " + transactionsInFlight);
        }
        kafkaCaFile = kafkaCaFile == null || kafkaCaFile.isBlank() ? null : kafkaCaFile;
        kafkaSecurity(kafkaUser, kafkaPassword, kafkaCaFile); // a user without password fails at startup, not at a write
    }

    /** Names and sizes only: the Kafka password stays out of logs. */
    @Override
    public String toString() {
        return "IngestProperties[bootstrapServers=" + bootstrapServers + ", maxBodyBytes="
                + maxBodyBytes + ", ackTimeout=" + ackTimeout + ", groupWait=" + groupWait + ", transactionsInFlight="
                + transactionsInFlight + ", kafka=" + kafkaSecurity() + "]";
    }

    /** How the ingest producers log in to Kafka. */
    public KafkaClientSecurity kafkaSecurity() {
        return kafkaSecurity(kafkaUser, kafkaPassword, kafkaCaFile);
    }

    private static KafkaClientSecurity kafkaSecurity(String user, String password, String caFile) {
        return new KafkaClientSecurity(user, password, caFile == null ? null : Path.of(caFile));
    }
}
