package dev.caplab.sink.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.store.access.StepVerdictRepository;
import dev.caplab.streams.SyntheticRun;
import dev.caplab.sink.ClickHouseSink;
import dev.caplab.sink.SinkSettings;
import dev.caplab.streams.it.PacedInput;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fault test of the distributed mode on a real three-node cluster (replication factor 3, min ISR 2, catalog topics
 * created by caplab's {@code TopicProvisioner} as {@code caplab migrate --replication-factor 3} does): six stepped
 * runs, one on each partition, stream in while two streams instances of one application (child JVMs) and one sink
 * (this JVM) run. Mid-run one streams instance is killed with SIGKILL and the broker leading most sample partitions
 * is killed too (no controlled shutdown); input goes on. Afterwards ClickHouse must hold every committed sample
 * exactly once and every step of every run aggregated once, equal to the read_committed oracle.
 */
class DistributedFaultIT {

    private static final int NODES = 3;
    /**
     * 43 rounds of one input per run, one transaction each: 26 s of pauses plus the commits (about 1 s each on a
     * loaded 2-core machine), so the input outlasts the 45 s session timeout that hands the killed instance's tasks
     * over and both faults hit mid-run.
     */
    private static final Duration PACE_PER_ROUND = Duration.ofMillis(600);
    /** The input waits before round 30 of 43 until both faults were injected. */
    private static final int HOLD_ROUND = 30;
    @RegisterExtension
    static final ItEnvironment ENV = ItEnvironment.cluster(NODES);

    @Test
    void streamsInstanceAndBrokerKilledMidRunLoseAndDuplicateNothing() throws Exception {
        List<String> runs = runsOnEveryPartition();
        PacedInput input = new PacedInput(runs, PACE_PER_ROUND, HOLD_ROUND);
        var verdicts = new StepVerdictRepository(ENV.db().dataSource());
        ChildJvm survivor = CrashChild.streamsOnly(ENV, "streams-1", ENV.dir().resolve("state-1"));
        ChildJvm victim = CrashChild.streamsOnly(ENV, "streams-2", ENV.dir().resolve("state-2"));
        int producedAtKill;
        int killedNode;
        long started = System.nanoTime();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, ENV.bootstrap()));
                ClickHouseSink sink = ClickHouseSink.start(SinkSettings.of(ENV.bootstrap()), ENV.db().dataSource())) {
            survivor.awaitLine(CrashChild.READY, Duration.ofSeconds(120));
            victim.awaitLine(CrashChild.READY, Duration.ofSeconds(120));
            phase(started, "both streams instances running");
            ItEnvironment.await(Duration.ofSeconds(60), () -> samplePartitionsPerMember(admin).size() == 2
                    && samplePartitionsPerMember(admin).stream().noneMatch(Set::isEmpty),
                    () -> "; sample partitions per streams member: " + samplePartitionsPerMember(admin));
            assertReplicated(admin);
            phase(started, "both instances own sample partitions " + samplePartitionsPerMember(admin));

            input.start(ENV.bootstrap(), "fault-it-input");
            ItEnvironment.await(Duration.ofSeconds(120), () -> runs.stream().anyMatch(r -> !verdicts.ofRun(r).isEmpty()),
                    () -> "; no verdict yet, " + input.progress() + survivor.logContext() + victim.logContext());
            producedAtKill = input.produced();
            victim.kill();
            killedNode = leaderOfMostSamplePartitions(admin);
            ENV.kafkaCluster().kill(killedNode);
            input.release();
            phase(started, "killed a streams instance and broker " + killedNode + " after " + producedAtKill
                    + " input records");
            assertThat(producedAtKill).as("the faults came mid-run").isLessThanOrEqualTo(input.recordsBeforeHold());

            input.awaitSent(Duration.ofMinutes(2));
            phase(started, "input sent");
            CommittedInput oracle = CommittedInput.read(ENV.bootstrap());
            long samples = oracle.samples().values().stream().mapToLong(Long::longValue).sum();
            int aggregates = ExactlyOnceChecks.expectedAggregates(oracle);
            ItEnvironment.await(Duration.ofSeconds(150), () -> survivor.alive() && sink.failure() == null
                    && ENV.scalar("SELECT count() FROM samples") == samples
                    && ExactlyOnceChecks.storedAggregates(ENV, runs).size() == aggregates
                    && runs.stream().allMatch(r -> verdicts.ofRun(r).size() == SyntheticRun.STEPS),
                    () -> "; samples " + ENV.scalar("SELECT count() FROM samples") + " of " + samples
                            + ", aggregates " + ExactlyOnceChecks.storedAggregates(ENV, runs).size() + " of "
                            + aggregates + ", runs without all " + SyntheticRun.STEPS + " verdicts "
                            + runs.stream().filter(r -> verdicts.ofRun(r).size() != SyntheticRun.STEPS)
                                    .collect(Collectors.toMap(r -> r, r -> verdicts.ofRun(r).size()))
                            + ", sink failure " + sink.failure() + survivor.logContext());
            phase(started, "every sample and aggregate stored");
            // Let the sink drain what follows the last verdict before the checks read ClickHouse.
            Thread.sleep(2000);
        } finally {
            input.stop();
            survivor.destroy();
            victim.destroy();
        }

        CommittedInput oracle = CommittedInput.read(ENV.bootstrap());
        ExactlyOnceChecks.samplesStoredOnce(ENV, oracle, runs);
        int aggregates = ExactlyOnceChecks.stepAggregatesMatchOracle(ENV, oracle, runs);
        System.out.printf("distributed fault: %d runs, %d samples stored once, %d aggregates equal to the oracle;"
                + " streams instance and broker %d killed after %d of %d input records; %d s%n", runs.size(),
                ENV.scalar("SELECT count() FROM samples"), aggregates, killedNode, producedAtKill,
                input.records().size(), Duration.ofNanos(System.nanoTime() - started).toSeconds());
    }

    /** Progress on stdout, so a slow CI run shows which phase took the time. */
    private static void phase(long startedNanos, String what) {
        System.out.printf("distributed fault +%d s: %s%n", Duration.ofNanos(System.nanoTime() - startedNanos)
                .toSeconds(), what);
    }

    /** Run ids whose records land on every partition (the producer's keyed partitioning), one run per partition. */
    private static List<String> runsOnEveryPartition() {
        Map<Integer, String> byPartition = new TreeMap<>();
        for (int i = 0; byPartition.size() < TopicCatalog.RUN_PARTITIONS; i++) {
            String run = "fault-" + i;
            byPartition.putIfAbsent(BuiltInPartitioner.partitionForKey(run.getBytes(StandardCharsets.UTF_8),
                    TopicCatalog.RUN_PARTITIONS), run);
        }
        return List.copyOf(byPartition.values());
    }

    /** caplab's topics and the Streams application's internal topics: three replicas, two needed for a write. */
    private static void assertReplicated(Admin admin) throws ExecutionException, InterruptedException {
        Set<String> topics = admin.listTopics().names().get().stream()
                .filter(t -> t.startsWith("caplab.") || t.startsWith(CrashChild.APPLICATION_ID))
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(topics).as("Streams created its changelogs").anyMatch(t -> t.endsWith("-changelog"));
        Map<String, TopicDescription> described = admin.describeTopics(topics).allTopicNames().get();
        described.forEach((name, d) -> assertThat(d.partitions()).as("replicas of " + name)
                .allSatisfy(p -> assertThat(p.replicas()).hasSize(NODES)));
        List<ConfigResource> resources = topics.stream()
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList();
        admin.describeConfigs(resources).all().get().forEach((resource, config) -> assertThat(
                config.get("min.insync.replicas").value()).as("min.insync.replicas of " + resource.name())
                .isEqualTo("2"));
    }

    /** The sample partitions each member of the streams application's consumer group owns. */
    private static List<Set<Integer>> samplePartitionsPerMember(Admin admin) {
        try {
            Collection<MemberDescription> members = admin.describeConsumerGroups(List.of(CrashChild.APPLICATION_ID))
                    .all().get().get(CrashChild.APPLICATION_ID).members();
            List<Set<Integer>> out = new ArrayList<>();
            for (MemberDescription m : members) {
                out.add(m.assignment().topicPartitions().stream().filter(tp -> tp.topic().equals(TopicCatalog.SAMPLES))
                        .map(tp -> tp.partition()).collect(Collectors.toCollection(TreeSet::new)));
            }
            return out;
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot describe group " + CrashChild.APPLICATION_ID, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static int leaderOfMostSamplePartitions(Admin admin) throws ExecutionException, InterruptedException {
        List<TopicPartitionInfo> partitions = admin.describeTopics(List.of(TopicCatalog.SAMPLES)).allTopicNames().get()
                .get(TopicCatalog.SAMPLES).partitions();
        return partitions.stream().collect(Collectors.groupingBy(p -> p.leader().id(), Collectors.counting()))
                .entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }
}
