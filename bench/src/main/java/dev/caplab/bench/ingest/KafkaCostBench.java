package dev.caplab.bench.ingest;

import dev.caplab.app.load.K6LikeLines;
import dev.caplab.bench.pipeline.CpuAccount;
import dev.caplab.broker.BrokerSettings;
import dev.caplab.broker.EmbeddedKafkaBroker;
import dev.caplab.ingest.influx.LineProtocolParser;
import dev.caplab.ingest.influx.TimestampPrecision;
import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.ingest.publish.ProducerSettings;
import dev.caplab.ingest.publish.RequestRecords;
import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.schema.topic.TopicSpec;
import dev.caplab.sink.ClickHouseSink;
import dev.caplab.sink.SinkSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * What Kafka's own code costs per sample, and the raw topic's bytes on disk per sample, by producer compression: the
 * pipeline bench's request bodies (k6-like lines, 5,000 per request, 10 runs) parsed and encoded by ingest into
 * SampleBatch records ({@link RequestRecords}) before the clock starts, then published one request per transaction by
 * two producers with ingest's {@link ProducerSettings} (as two clients' {@code /write}s), while two consumers read them
 * live as the pipeline's do: one with Kafka Streams' main-consumer settings under exactly-once (read_committed, 1,000
 * records per poll), one with the sink's ({@link ClickHouseSink#consumerProperties}). CPU per sample by thread group
 * (producers' network threads, the broker's {@code data-plane-kafka-*}, the consumer threads {@code c-streams} and
 * {@code c-sink}, which fetch and decompress in {@code poll}); no Streams, sink or chDB work. Each compression gets a
 * fresh topic per round; round 1 warms the JIT, later rounds are measured. Arguments: [requests=200] [rounds=3]
 * [variants=lz4,zstd,none,snappy, see {@link #pass}] [linesPerRequest=5000]; system properties
 * {@code bench.producer.<key>} and {@code bench.consumer.<key>} override a client setting of every variant (e.g.
 * {@code -Dbench.consumer.fetch.min.bytes=65536}).
 */
public final class KafkaCostBench {

    private static final int RUNS = 10;
    private static final int PRODUCERS = 2;
    /** The first failure of a producer or consumer thread, reported by the pass. */
    private static final AtomicReference<RuntimeException> FAILURE = new AtomicReference<>();
    private static final long COMMIT_NANOS = Duration.ofMillis(200).toNanos();

    private KafkaCostBench() {
    }

    public static void main(String[] args) throws Exception {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        String[] variants = (args.length > 2 ? args[2] : "lz4,zstd,none,snappy").split(",");
        int lines = args.length > 3 ? Integer.parseInt(args[3]) : 5_000;
        Path dataDir = Files.createTempDirectory("caplab-kafka-cost-bench");
        List<List<ProducerRecord<String, byte[]>>> bodies = encode(requests, lines);
        long samples = (long) requests * lines;
        long valueBytes = bodies.stream().flatMap(List::stream).mapToLong(r -> r.value().length).sum();
        System.out.printf(Locale.ROOT, "%d requests, %d samples, %d records, %.1f Avro bytes per sample%n", requests,
                samples, bodies.stream().mapToInt(List::size).sum(), (double) valueBytes / samples);
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(BrokerSettings.loopback(dataDir, 0))) {
            for (int round = 1; round <= rounds; round++) {
                for (String variant : variants) {
                    pass(broker, dataDir.resolve("kafka"), bodies, samples, round, variant);
                }
            }
        }
    }

    /**
     * One round of one variant on a fresh topic: produced and consumed at once, CPU read while every client is still
     * open. A variant is a compression ("zstd:1" is zstd at level 1), optionally with consumer settings
     * ("lz4@fetch.min.bytes=65536&fetch.max.wait.ms=100").
     */
    private static void pass(EmbeddedKafkaBroker broker, Path kafkaDir,
            List<List<ProducerRecord<String, byte[]>>> bodies, long samples, int round, String variant)
            throws InterruptedException {
        String compression = variant.split("@")[0];
        Map<String, String> consumerSettings = new HashMap<>();
        if (variant.contains("@")) {
            for (String kv : variant.substring(variant.indexOf('@') + 1).split("&")) {
                consumerSettings.put(kv.split("=")[0], kv.split("=")[1]);
            }
        }
        String topic = "bench.samples-" + variant.replaceAll("[^a-z0-9]+", "_") + "-" + round;
        broker.createTopics(List.of(new TopicSpec(topic, 6, Map.of("retention.ms", "-1", "retention.bytes", "-1"),
                "kafka cost bench")));
        ConcurrentLinkedQueue<List<ProducerRecord<String, byte[]>>> queue = new ConcurrentLinkedQueue<>();
        bodies.forEach(rs -> queue.add(rs.stream().map(r -> new ProducerRecord<>(topic, r.key(), r.value())).toList()));
        int records = queue.stream().mapToInt(List::size).sum();
        String bootstrap = broker.bootstrapServers();
        Map<String, Long> requestsBefore = brokerRequests();
        CpuAccount cpu = CpuAccount.start();
        long started = System.nanoTime();
        CountDownLatch finished = new CountDownLatch(2 + PRODUCERS);
        CountDownLatch release = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        threads.add(consumer("c-streams", streamsLike(bootstrap), consumerSettings, topic, records, finished, release));
        threads.add(consumer("c-sink", sinkLike(bootstrap), consumerSettings, topic, records, finished, release));
        AtomicInteger slot = new AtomicInteger();
        for (int p = 0; p < PRODUCERS; p++) {
            threads.add(Thread.ofPlatform().daemon().name("p-request-" + p).start(() -> produce(bootstrap,
                    compression, slot.incrementAndGet(), queue, finished, release)));
        }
        finished.await();
        if (FAILURE.get() != null) {
            throw new IllegalStateException("a producer or consumer of " + topic + " failed", FAILURE.get());
        }
        double wall = (System.nanoTime() - started) / 1e9;
        long disk = logBytes(kafkaDir, topic);
        System.out.printf(Locale.ROOT, "%nround %d, %s: %.1f s wall, %.2f bytes on disk per sample (%.1f MB)%n", round,
                variant, wall, (double) disk / samples, disk / 1e6);
        cpu.print(System.out, samples, "µs", "sample", 1e3, 3);
        printRequests(brokerRequests(), requestsBefore, bodies.size());
        release.countDown();
        for (Thread t : threads) {
            t.join();
        }
    }

    /** Each request's SampleBatch records as ingest's {@code /write} makes them. */
    private static List<List<ProducerRecord<String, byte[]>>> encode(int requests, int lines) {
        LineProtocolParser parser = new LineProtocolParser();
        List<List<ProducerRecord<String, byte[]>>> out = new ArrayList<>();
        long start = Instant.parse("2026-12-04T00:00:00Z").getEpochSecond() * 1_000_000_000L;
        for (int r = 0; r < requests; r++) {
            String run = "bench-run-" + (r % RUNS);
            long first = (long) (r / RUNS) * lines;
            byte[] body = K6LikeLines.batch(run, first, lines, start, 1_000_000L);
            RoutedSamples routed = parser.parse(body, 0, body.length, TimestampPrecision.NANOSECONDS, null,
                    Instant.now());
            if (!routed.errors().isEmpty()) {
                throw new IllegalStateException("bench lines rejected: " + routed.errors().getFirst() + " in "
                        + new String(body, 0, 300, StandardCharsets.UTF_8));
            }
            out.add(new RequestRecords(IngestLimits.DEFAULTS, Instant.now()).samples(routed, "influx").records());
        }
        return out;
    }

    private static void produce(String bootstrap, String compression, int slot,
            ConcurrentLinkedQueue<List<ProducerRecord<String, byte[]>>> queue, CountDownLatch finished,
            CountDownLatch release) {
        Map<String, Object> props = new ProducerSettings(bootstrap, "kafka-cost-bench").asProperties();
        // "zstd:1" is zstd at level 1
        String[] typeAndLevel = compression.split(":");
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, typeAndLevel[0]);
        if (typeAndLevel.length > 1) {
            props.put("compression." + typeAndLevel[0] + ".level", typeAndLevel[1]);
        }
        props.putAll(overrides("bench.producer."));
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "kafka-cost-bench-" + UUID.randomUUID() + "-" + slot);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(props, new StringSerializer(),
                new ByteArraySerializer())) {
            work(finished, release, () -> {
                producer.initTransactions();
                for (List<ProducerRecord<String, byte[]>> request = queue.poll(); request != null;
                        request = queue.poll()) {
                    producer.beginTransaction();
                    request.forEach(producer::send);
                    producer.commitTransaction();
                }
            });
        }
    }

    /** Kafka Streams' main consumer under exactly_once_v2: read_committed, its max.poll.records of 1,000. */
    private static Properties streamsLike(String bootstrap) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "c-streams-" + UUID.randomUUID());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1000");
        return p;
    }

    private static Properties sinkLike(String bootstrap) {
        return ClickHouseSink.consumerProperties(SinkSettings.of(bootstrap).withGroupId("c-sink-" + UUID.randomUUID()));
    }

    private static Thread consumer(String name, Properties props, Map<String, String> variant, String topic,
            int records, CountDownLatch finished, CountDownLatch release) {
        props.putAll(overrides("bench.consumer."));
        props.putAll(variant);
        return Thread.ofPlatform().daemon().name(name).start(() -> {
            try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                    new ByteArrayDeserializer())) {
                work(finished, release, () -> {
                    consumer.subscribe(List.of(topic));
                    long seen = 0;
                    long committed = System.nanoTime();
                    long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
                    while (seen < records) {
                        if (System.nanoTime() > deadline) {
                            throw new IllegalStateException(name + " saw " + seen + " of " + records + " records");
                        }
                        ConsumerRecords<String, byte[]> polled = consumer.poll(Duration.ofMillis(500));
                        seen += polled.count();
                        // as the pipeline's consumers: offsets committed about every commit interval, not every poll
                        if (!polled.isEmpty() && (System.nanoTime() - committed > COMMIT_NANOS || seen == records)) {
                            consumer.commitSync();
                            committed = System.nanoTime();
                        }
                    }
                });
            }
        });
    }

    /** Requests the broker has handled, by type, from its own metrics (the broker runs in this JVM). */
    private static Map<String, Long> brokerRequests() {
        Map<String, Long> out = new TreeMap<>();
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            for (ObjectName name : server.queryNames(new ObjectName(
                    "kafka.network:type=RequestMetrics,name=RequestsPerSec,*"), null)) {
                out.merge(name.getKeyProperty("request"), ((Number) server.getAttribute(name, "Count")).longValue(),
                        Long::sum);
            }
        } catch (JMException e) {
            throw new IllegalStateException("cannot read the broker's request metrics", e);
        }
        return out;
    }

    private static void printRequests(Map<String, Long> after, Map<String, Long> before, int requests) {
        StringBuilder line = new StringBuilder("broker requests per /write request:");
        after.forEach((type, count) -> {
            double per = (double) (count - before.getOrDefault(type, 0L)) / requests;
            if (per >= 0.05) {
                line.append(String.format(Locale.ROOT, " %s %.1f", type, per));
            }
        });
        System.out.println(line);
    }

    /** System properties {@code <prefix>key=value}, as client settings {@code key=value}: variants to compare. */
    private static Map<String, String> overrides(String prefix) {
        Map<String, String> out = new HashMap<>();
        System.getProperties().stringPropertyNames().stream().filter(k -> k.startsWith(prefix))
                .forEach(k -> out.put(k.substring(prefix.length()), System.getProperty(k)));
        return out;
    }

    /**
     * Runs a worker's part while its client is open, reports it finished (failed or not), then keeps the client's
     * threads alive until the pass's CPU has been read: threads that ended are only in the process total.
     */
    private static void work(CountDownLatch finished, CountDownLatch release, Runnable part) {
        try {
            part.run();
        } catch (RuntimeException e) {
            FAILURE.compareAndSet(null, e);
        } finally {
            finished.countDown();
        }
        if (FAILURE.get() == null) {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static long logBytes(Path kafkaDir, String topic) {
        try (Stream<Path> files = Files.walk(kafkaDir)) {
            return files.filter(f -> f.getParent().getFileName().toString().startsWith(topic + "-")
                    && f.getFileName().toString().endsWith(".log")).mapToLong(f -> {
                        try {
                            return Files.size(f);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
