package dev.caplab.streams.rebuild;

import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.streams.StreamsRunner;
import dev.caplab.streams.StreamsSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Re-derives every projection from the raw topics: the production topology under a fresh application id reads
 * {@code caplab.runs} and {@code caplab.samples} from the start and re-emits aggregates, verdicts and fits. Versions
 * and timestamps are functions of the input, so the sink's ReplacingMergeTree rows come out as the live run made them
 * (or as the changed analysis now makes them). Returns when the rebuild has consumed the raw topics up to their
 * end offsets at start, plus the grace that closes the last steps.
 */
public final class Rebuild {

    private static final List<String> RAW = List.of(TopicCatalog.RUNS, TopicCatalog.SAMPLES);

    private Rebuild() {
    }

    public static void run(StreamsSettings settings, Duration timeout) throws InterruptedException {
        Properties admin = new Properties();
        admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        try (Admin client = Admin.create(admin)) {
            Map<TopicPartition, Long> ends = endOffsets(client);
            try (StreamsRunner streams = StreamsRunner.start(settings)) {
                streams.awaitRunning(timeout);
                long deadline = System.nanoTime() + timeout.toNanos();
                while (!caughtUp(client, settings.applicationId(), ends)) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("rebuild " + settings.applicationId()
                                + " did not reach the raw topics' end within " + timeout);
                    }
                    Thread.sleep(500);
                }
                // Let wall-clock grace close the last steps and the final commit flush them.
                Thread.sleep(settings.topology().grace().plus(settings.commitInterval()).plusSeconds(2).toMillis());
            }
        }
    }

    private static Map<TopicPartition, Long> endOffsets(Admin client) throws InterruptedException {
        try {
            Map<TopicPartition, OffsetSpec> request = client.describeTopics(RAW).allTopicNames().get().values()
                    .stream().flatMap(d -> d.partitions().stream().map(p -> new TopicPartition(d.name(),
                            p.partition()))).collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()));
            return client.listOffsets(request).all().get().entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read end offsets of " + RAW + ": " + e.getCause(), e.getCause());
        }
    }

    private static boolean caughtUp(Admin client, String groupId, Map<TopicPartition, Long> ends)
            throws InterruptedException {
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = client.listConsumerGroupOffsets(groupId)
                    .partitionsToOffsetAndMetadata().get();
            return ends.entrySet().stream().allMatch(e -> e.getValue() == 0 || (committed.get(e.getKey()) != null
                    && committed.get(e.getKey()).offset() >= e.getValue()));
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read offsets of " + groupId + ": " + e.getCause(), e.getCause());
        }
    }
}
