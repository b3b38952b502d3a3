package dev.caplab.bench.ingest;

import dev.caplab.app.load.K6LikeLines;
import dev.caplab.bench.pipeline.CpuAccount;
import dev.caplab.broker.BrokerSettings;
import dev.caplab.broker.EmbeddedKafkaBroker;
import dev.caplab.ingest.publish.ProducerSettings;
import dev.caplab.ingest.publish.TransactionalPublisher;
import dev.caplab.schema.topic.TopicSpec;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * What a Kafka transaction costs the embedded broker, apart from the data it carries: the same requests (5 records of
 * about 100 kB each, as a 5,000-line {@code /write} becomes) published through ingest's {@link TransactionalPublisher}
 * 1, 2, 4 and 8 requests per transaction (what group commit does with that many concurrent requests), with CPU per
 * request by thread group (Linux's per-thread accounting, as the pipeline bench's). No streams, sink or chDB: only the
 * broker, the producer and this thread. Each setting runs twice; the first round warms the JIT.
 * Arguments: [requests=400].
 */
public final class TransactionCostBench {

    private static final String TOPIC = "caplab.tx-cost-bench";
    private static final int RECORDS_PER_REQUEST = 5;
    private static final int LINES_PER_RECORD = 1_000;
    private static final int RUNS = 10;

    private TransactionCostBench() {
    }

    public static void main(String[] args) throws Exception {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        byte[][] values = new byte[50][];
        for (int i = 0; i < values.length; i++) {
            values[i] = K6LikeLines.batch((long) i * LINES_PER_RECORD, LINES_PER_RECORD);
        }
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(BrokerSettings.loopback(
                Files.createTempDirectory("caplab-tx-cost-bench"), 0));
                TransactionalPublisher publisher = new TransactionalPublisher(
                        new ProducerSettings(broker.bootstrapServers(), "tx-cost-bench"), Duration.ofSeconds(30))) {
            broker.createTopics(List.of(new TopicSpec(TOPIC, 6, Map.of(), "transaction cost bench")));
            for (int round = 1; round <= 2; round++) {
                for (int perTransaction : new int[] {1, 2, 4, 8}) {
                    CpuAccount cpu = CpuAccount.start();
                    long started = System.nanoTime();
                    for (int first = 0; first < requests; first += perTransaction) {
                        publisher.publish(group(values, first, perTransaction), perTransaction + " requests");
                    }
                    double wallMillis = (System.nanoTime() - started) / 1e6 / requests;
                    System.out.printf(Locale.ROOT, "round %d, %d requests per transaction: %.1f ms wall per request;"
                            + " CPU per request by thread group:%n", round, perTransaction, wallMillis);
                    cpu.print(System.out, requests, "ms", "request", 1e6, 2);
                }
            }
        }
    }

    /** The records of {@code count} consecutive requests, each keyed by its run as ingest keys them. */
    private static List<ProducerRecord<String, byte[]>> group(byte[][] values, int first, int count) {
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        for (int request = first; request < first + count; request++) {
            for (int r = 0; r < RECORDS_PER_REQUEST; r++) {
                records.add(new ProducerRecord<>(TOPIC, "run-" + request % RUNS,
                        values[(request * RECORDS_PER_REQUEST + r) % values.length]));
            }
        }
        return records;
    }
}
