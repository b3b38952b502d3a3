package dev.caplab.streams.rebuild;

import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.streams.StreamsRunner;
import dev.caplab.streams.StreamsSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-derives every projection from the raw topics: the production topology under a fresh application id and a new
 * {@link Generation} reads {@code caplab.runs} and {@code caplab.samples} from the start and re-emits aggregates,
 * verdicts, fits and alerts to the derived topics, where any sink picks them up. Their versions carry the generation,
 * so in the store's ReplacingMergeTree tables they replace the rows of the live run and of every earlier rebuild,
 * whatever the changed analysis now makes of them. Returns when the rebuild has consumed the raw topics up to their
 * end offsets at start, plus the grace that closes the last steps; then removes its group, changelogs and state.
 *
 * <p>Meant for runs that have ended: the live app keeps deriving a run still in flight under {@link Generation#LIVE},
 * and those later rows lose to this rebuild's wherever both wrote the same key (a refit), until the next rebuild.
 */
public final class Rebuild {

    /** Application ids (and consumer groups) of rebuilds: this prefix and the generation. */
    public static final String APPLICATION_ID_PREFIX = "caplab-rebuild-";
    private static final Logger LOG = LoggerFactory.getLogger(Rebuild.class);
    private static final List<String> RAW = List.of(TopicCatalog.RUNS, TopicCatalog.SAMPLES);
    private static final List<String> DERIVED = List.of(TopicCatalog.STEP_AGGREGATES, TopicCatalog.VERDICTS,
            TopicCatalog.FITS, TopicCatalog.ALERTS, TopicCatalog.LATENESS, TopicCatalog.CONCLUSIONS);

    private Rebuild() {
    }

    /**
     * Rebuilds with {@code base}'s brokers, commit interval, threads and topology settings (the analysis), under
     * generation {@link Generation#startedAt} now, application id {@link #APPLICATION_ID_PREFIX}{@code <generation>}
     * and Kafka Streams state under {@code base.stateDir()}.
     */
    public static RebuildReport run(StreamsSettings base, Duration timeout) throws InterruptedException {
        Instant started = Instant.now();
        Generation generation = Generation.startedAt(started);
        String id = APPLICATION_ID_PREFIX + generation.value();
        StreamsSettings settings = base.withApplicationId(id).withGeneration(generation);
        Properties admin = new Properties();
        admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        try (Admin client = Admin.create(settings.kafkaSecurity().applyTo(admin))) {
            Map<TopicPartition, Long> ends = TopicOffsets.latest(client, RAW);
            long processed;
            Map<String, Long> sent;
            try (StreamsRunner streams = StreamsRunner.start(settings)) {
                streams.awaitRunning(timeout);
                long deadline = System.nanoTime() + timeout.toNanos();
                while (!caughtUp(client, id, ends)) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("rebuild " + id + " did not reach the raw topics' end within "
                                + timeout);
                    }
                    Thread.sleep(500);
                }
                // Wall-clock grace closes the last step of every run (no later sample advances event time), the
                // next punctuation emits it, the next commit makes it visible.
                Thread.sleep(settings.topology().grace().plus(settings.topology().punctuateInterval())
                        .plus(settings.commitInterval()).plusSeconds(2).toMillis());
                processed = streams.recordsProcessed();
                sent = DERIVED.stream().collect(Collectors.toMap(Function.identity(), streams::recordsSentTo));
                streams.closeForGood();
            }
            removeLeftovers(client, id);
            removeStateDirectory(settings.stateDir().resolve(id));
            return new RebuildReport(id, generation, processed, sent, Duration.between(started, Instant.now()));
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

    /** Kafka Streams' cleanUp leaves the application's directory with its lock and process id behind. */
    private static void removeStateDirectory(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            LOG.warn("rebuild finished, but its state directory {} remains: {}", dir, e.toString());
        }
    }

    /**
     * The rebuild's consumer group and changelog topics are of no use once its output is in the derived topics, and
     * each rebuild would leave a copy of every run's state behind. Failing to remove them loses nothing: logged.
     */
    private static void removeLeftovers(Admin client, String id) throws InterruptedException {
        try {
            List<String> internal = client.listTopics().names().get().stream()
                    .filter(t -> t.startsWith(id + "-")).toList();
            client.deleteTopics(internal).all().get();
            client.deleteConsumerGroups(List.of(id)).all().get();
        } catch (ExecutionException e) {
            LOG.warn("rebuild {} finished, but its group or changelog topics (prefix {}-) remain: {}", id, id,
                    e.getCause().toString());
        }
    }
}
