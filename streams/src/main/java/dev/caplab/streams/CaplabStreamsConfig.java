package dev.caplab.streams;

import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.LogAndFailExceptionHandler;

/** The streams configuration, every semantic setting pinned rather than inherited from a default. */
public final class CaplabStreamsConfig {

    private CaplabStreamsConfig() {
    }

    public static Properties properties(StreamsSettings s) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, s.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, s.bootstrapServers());
        p.put(StreamsConfig.STATE_DIR_CONFIG, s.stateDir().toAbsolutePath().toString());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(s.commitInterval().toMillis()));
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.toString(s.threads()));
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class.getName());
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class.getName());
        // Input is decoded inside the topology (poison → dead-letter topic) and read as bytes, so a deserialization
        // error is a bug: fail. A processing or production error escaping the run processor's own isolation is
        // dead-lettered with its reason and its run alerted, and the thread resumes: one record never stops all runs.
        p.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndFailExceptionHandler.class.getName());
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class.getName());
        p.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class.getName());
        // No global stores today; pinned so one added later gets the same handling.
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, "true");
        p.put(StreamsConfig.TOPOLOGY_OPTIMIZATION_CONFIG, StreamsConfig.NO_OPTIMIZATION);
        // Changelogs and repartition topics take the cluster's default.replication.factor (and its min ISR): a pinned 1
        // put them on one broker, so losing that broker stopped every task writing to them (DistributedFaultIT).
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, "-1");
        // Wait briefly for both co-partitioned inputs so lifecycle and samples interleave by timestamp.
        p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "100");
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        // An idle stream thread wakes once per poll; records end a poll at once, so a longer one only delays the
        // wall-clock punctuation, which ticks every 200 ms anyway (RunProcessor): 10 wake-ups a second become 5.
        p.put(StreamsConfig.POLL_MS_CONFIG, "200");
        // Unprefixed: Kafka Streams passes these to its producers, consumers and admin client alike.
        return s.kafkaSecurity().applyTo(p);
    }
}
