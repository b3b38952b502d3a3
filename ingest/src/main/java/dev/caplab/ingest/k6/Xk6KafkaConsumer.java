package dev.caplab.ingest.k6;

import dev.caplab.ingest.influx.LineProtocolParser;
import dev.caplab.ingest.influx.TimestampPrecision;
import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.ingest.publish.SampleSink;
import dev.caplab.schema.kafka.KafkaClientSecurity;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes the topic xk6-output-kafka writes ({@code k6 run --out kafka=brokers=...,topic=...,format=json|influxdb})
 * and publishes its points as samples. Messages have no keys: the run comes from a {@code run} tag
 * ({@code k6 --tag run=...}) or the default run. At-least-once: offsets are committed only after Kafka acknowledged
 * the samples of a poll. Rejected messages are logged with topic-partition@offset and counted, never skipped quietly.
 * Run it on its own thread; {@link #close()} stops it.
 */
public final class Xk6KafkaConsumer implements Runnable, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Xk6KafkaConsumer.class);

    /** The {@code format} option of xk6-output-kafka. */
    public enum Format { JSON, INFLUXDB }

    /** Where to read and how to log in, how it is encoded, and what to assume for points without run or source tags. */
    public record Settings(String bootstrapServers, String topic, String groupId, Format format, String defaultRunId,
            String defaultSource, KafkaClientSecurity kafkaSecurity) {

        public Settings {
            Objects.requireNonNull(bootstrapServers, "bootstrapServers");
            Objects.requireNonNull(topic, "topic");
            groupId = groupId == null || groupId.isBlank() ? "caplab-xk6-" + topic : groupId;
            Objects.requireNonNull(format, "format");
            Objects.requireNonNull(kafkaSecurity, "kafkaSecurity");
        }

        /** Reading without authentication (PLAINTEXT). */
        public Settings(String bootstrapServers, String topic, String groupId, Format format, String defaultRunId,
                String defaultSource) {
            this(bootstrapServers, topic, groupId, format, defaultRunId, defaultSource, KafkaClientSecurity.NONE);
        }
    }

    private final Settings settings;
    private final SampleSink sink;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final K6JsonParser jsonParser;
    private final LineProtocolParser lineParser = new LineProtocolParser();
    private final AtomicLong samplesPublished = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();

    public Xk6KafkaConsumer(Settings settings, SampleSink sink) {
        this.settings = settings;
        this.sink = Objects.requireNonNull(sink, "sink");
        this.jsonParser = new K6JsonParser(settings.defaultRunId(), settings.defaultSource());
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, settings.groupId());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
        this.consumer = new KafkaConsumer<>(settings.kafkaSecurity().applyTo(config), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }

    @Override
    public void run() {
        try {
            consumer.subscribe(List.of(settings.topic()));
            while (true) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
                if (records.isEmpty()) {
                    continue;
                }
                RoutedSamples.Builder out = new RoutedSamples.Builder();
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    parse(record, out);
                }
                RoutedSamples routed = out.build();
                routed.publishTo(sink, settings.format() == Format.JSON ? K6JsonParser.ADAPTER : "xk6-kafka-influx")
                        .join();
                samplesPublished.addAndGet(routed.sampleCount());
                consumer.commitSync();
            }
        } catch (WakeupException e) {
            log.info("Stopped consuming {} after {} samples ({} rejected)", settings.topic(), samplesPublished.get(),
                    rejected.get());
        } finally {
            consumer.close();
        }
    }

    private void parse(ConsumerRecord<byte[], byte[]> record, RoutedSamples.Builder out) {
        byte[] value = record.value();
        if (value == null) {
            return;
        }
        RoutedSamples.Builder one = new RoutedSamples.Builder();
        if (settings.format() == Format.JSON) {
            String[] lines = new String(value, StandardCharsets.UTF_8).split("\n");
            for (int i = 0; i < lines.length; i++) {
                jsonParser.parseLine(lines[i], i + 1, one);
            }
        } else {
            lineParser.parseInto(value, 0, value.length, TimestampPrecision.NANOSECONDS, settings.defaultRunId(),
                    Instant.now(), one);
        }
        RoutedSamples parsed = one.build();
        parsed.samplesByRun().forEach((run, samples) -> samples.forEach(s -> out.add(run, s)));
        for (ParseError error : parsed.errors()) {
            rejected.incrementAndGet();
            out.error(error);
            log.warn("Rejected k6 point at {}-{}@{}: {} ({})", record.topic(), record.partition(), record.offset(),
                    error.describe(), error.excerpt());
        }
    }

    public long samplesPublished() {
        return samplesPublished.get();
    }

    public long rejected() {
        return rejected.get();
    }

    /** Stops {@link #run()} from another thread; the consumer closes on its own thread. */
    @Override
    public void close() {
        consumer.wakeup();
    }
}
