package dev.caplab.streams.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.StepAggregateRepository;
import dev.caplab.store.access.StepVerdictRepository;
import dev.caplab.store.row.CapacityFitRow;
import dev.caplab.store.row.StepAggregateRow;
import dev.caplab.store.row.StepVerdictRow;
import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.streams.Events;
import dev.caplab.streams.SyntheticRun;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.it.CommittedInput.Expected;
import dev.caplab.streams.it.CommittedInput.Key;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fault test: three stepped runs with a cliff stream in while the streams app and the sink run in a child JVM; mid-run
 * the child is killed with SIGKILL ({@code destroyForcibly}) — a real crash: no close, no commit, the open Kafka
 * transaction and the sink's in-flight batch left as they were. A new child takes over from the same state
 * directory and groups. Afterwards ClickHouse must hold every committed sample exactly once, every step aggregate
 * must match an oracle recomputed from the committed input (read_committed), each aggregate must appear once in the
 * committed output, and the fits must equal those of an uninterrupted run of the same input.
 */
class CrashRecoveryIT {

    private static final List<String> RUNS = List.of("crash-a", "crash-b", "crash-c");
    private static final String PROBE_METRIC = "aborted.probe";
    private static final Duration PACE = Duration.ofMillis(100);
    @RegisterExtension
    static final ItEnvironment ENV = new ItEnvironment();

    @Test
    void killedMidRunLosesAndDuplicatesNothingAndFitsAsIfUninterrupted() throws Exception {
        List<Record> inputs = interleaved();
        AtomicInteger produced = new AtomicInteger();
        var verdicts = new StepVerdictRepository(ENV.db().dataSource());
        Process first = child(1);
        Process second = null;
        int producedAtKill;
        Thread producer = Thread.ofPlatform().name("crash-it-producer").unstarted(() -> produce(inputs, produced));
        try {
            awaitReady(first, 1);
            producer.start();
            // Kill once both roles have committed work (a verdict in ClickHouse) and input is still arriving.
            await(Duration.ofSeconds(90), () -> !verdicts.ofRun(RUNS.getFirst()).isEmpty(), 1);
            producedAtKill = produced.get();
            first.destroyForcibly();
            assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(first.exitValue()).as("killed by SIGKILL, not shut down").isEqualTo(137);
            assertThat(producedAtKill).as("the kill came mid-run").isLessThan(inputs.size());

            second = child(2);
            awaitReady(second, 2);
            producer.join(Duration.ofMinutes(2).toMillis());
            var fits = new CapacityFitRepository(ENV.db().dataSource());
            await(Duration.ofSeconds(180), () -> RUNS.stream().allMatch(r -> verdicts.ofRun(r).size()
                    == SyntheticRun.STEPS && fits.ofRun(r).stream().anyMatch(f -> f.metric().equals("cpu.cores")
                    && f.stepsUsed() == SyntheticRun.STEPS)) && samplesInStore() >= 3L * SyntheticRun.sampleCount(),
                    2);
            // Let the sink drain the last derived records, then stop it the hard way too.
            Thread.sleep(3000);
        } finally {
            producer.join(Duration.ofMinutes(1).toMillis());
            first.destroyForcibly();
            if (second != null) {
                second.destroyForcibly();
                second.waitFor(30, TimeUnit.SECONDS);
            }
        }

        CommittedInput oracle = CommittedInput.read(ENV.bootstrap());
        assertThat(oracle.samplesPerRun()).as("the aborted probe is not committed input")
                .isEqualTo(RUNS.stream().collect(Collectors.toMap(r -> r, r -> (long) SyntheticRun.sampleCount())));

        // Raw samples: every committed sample once, per (run, source, metric) count and sum.
        assertThat(storedTotals()).isEqualTo(oracle.totals().entrySet().stream().collect(Collectors.toMap(
                e -> e.getKey().toString(), e -> e.getValue().count() + "/" + sumText(e.getValue().sum()))));
        assertThat(ENV.scalar("SELECT count() - uniqExact(run_id, source, metric, ts) FROM samples")).isZero();
        assertThat(ENV.scalar("SELECT count() FROM samples WHERE metric = '" + PROBE_METRIC + "'")).isZero();

        // Step aggregates: exactly once in the committed output, and equal to the oracle in ClickHouse (FINAL).
        Map<Key, Expected> expected = oracle.stepAggregates();
        List<StepAggregate> committedAggregates = CommittedInput.committed(ENV.bootstrap(),
                TopicCatalog.STEP_AGGREGATES, (t, b) -> EventSerdes.stepAggregate().deserialize(t, b));
        Map<Key, Long> emitted = committedAggregates.stream().collect(Collectors.groupingBy(a -> new Key(
                a.getRunId().toString(), a.getStepIndex(), a.getSource().toString(), a.getMetric().toString()),
                Collectors.counting()));
        assertThat(emitted.keySet()).isEqualTo(expected.keySet());
        assertThat(emitted.values()).as("no aggregate emitted twice across the crash").containsOnly(1L);
        Map<Key, StepAggregateRow> stored = new HashMap<>();
        for (String run : RUNS) {
            new StepAggregateRepository(ENV.db().dataSource()).ofRun(run).forEach(a -> stored.put(new Key(a.runId(),
                    a.stepIndex(), a.source(), a.metric()), a));
        }
        assertThat(stored.keySet()).isEqualTo(expected.keySet());
        expected.forEach((key, want) -> {
            StepAggregateRow got = stored.get(key);
            assertThat(got.sampleCount()).as("count " + key).isEqualTo(want.count());
            assertThat(got.warmupCount()).as("warm-up " + key).isEqualTo(want.warmupCount());
            if (want.kind() == SampleKind.GAUGE) {
                assertThat(got.valueSum()).as("sum " + key).isCloseTo(want.sum(), within(1e-9 * Math.abs(want.sum())));
                assertThat(got.valueMin()).as("min " + key).isEqualTo(want.min());
                assertThat(got.valueMax()).as("max " + key).isEqualTo(want.max());
            } else {
                // Golden figure of the generator: the tx counter grows 10 kB/s per user.
                assertThat(got.ratePerSecond()).as("rate " + key)
                        .isCloseTo(10_000 * SyntheticRun.users(key.step()), within(1e-6));
            }
        });

        // Fits: the committed output and ClickHouse equal an uninterrupted run of the same input.
        Map<String, CapacityFit> uninterrupted = uninterruptedFits();
        Map<String, CapacityFit> committedFits = latest(CommittedInput.committed(ENV.bootstrap(),
                TopicCatalog.FITS, (t, b) -> EventSerdes.capacityFit().deserialize(t, b)));
        assertThat(committedFits).isEqualTo(uninterrupted);
        List<CapacityFitRow> storedFits = new ArrayList<>();
        RUNS.forEach(r -> storedFits.addAll(new CapacityFitRepository(ENV.db().dataSource()).ofRun(r)));
        assertThat(storedFits).hasSameSizeAs(uninterrupted.values());
        for (CapacityFitRow row : storedFits) {
            CapacityFit want = uninterrupted.get(row.runId() + "/" + row.source() + "/" + row.metric());
            assertThat(want).as("fit " + row.runId() + " " + row.metric()).isNotNull();
            assertThat(List.of(row.model(), row.stepsUsed(), row.cliff(), String.valueOf(row.capacity()),
                    String.valueOf(row.safeCapacityX()), String.valueOf(row.rSquared()), row.version()))
                    .as("fit " + row.runId() + " " + row.metric())
                    .isEqualTo(List.of(want.getModel().toString(), want.getStepsUsed(), want.getCliff(),
                            String.valueOf(want.getCapacity()), String.valueOf(want.getSafeCapacityX()),
                            String.valueOf(want.getRSquared()), want.getVersion()));
        }
        assertThat(storedFits.stream().filter(f -> f.metric().equals("cpu.cores"))).hasSize(RUNS.size())
                .allSatisfy(f -> assertThat(f.cliff()).isTrue());
        for (String run : RUNS) {
            assertThat(verdicts.ofRun(run)).extracting(StepVerdictRow::passed)
                    .containsExactly(true, true, true, true, true, false, false, false);
        }
        System.out.printf("crash recovery: %d samples in, %d rows out, %d duplicates, %d aggregates, %d fits equal,"
                + " killed after %d of %d input records%n", 3L * SyntheticRun.sampleCount(), samplesInStore(),
                ENV.scalar("SELECT count() - uniqExact(run_id, source, metric, ts) FROM samples"), stored.size(),
                storedFits.size(), producedAtKill, inputs.size());
    }

    /** One input record of one run, in the order the test sends them. */
    private record Record(String runId, SyntheticRun.Input input) {
    }

    private static List<Record> interleaved() {
        List<List<SyntheticRun.Input>> perRun = RUNS.stream().map(SyntheticRun::inputs).toList();
        List<Record> out = new ArrayList<>();
        for (int i = 0; i < perRun.getFirst().size(); i++) {
            for (int r = 0; r < RUNS.size(); r++) {
                out.add(new Record(RUNS.get(r), perRun.get(r).get(i)));
            }
        }
        return out;
    }

    /**
     * Sends the records paced, three per transaction, as ingest does; once, mid-run, a transaction with probe samples
     * inside a step is aborted: whatever reads it without read_committed would store or aggregate it.
     */
    private static void produce(List<Record> inputs, AtomicInteger produced) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, ENV.bootstrap());
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "crash-it-input");
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(),
                new ByteArraySerializer())) {
            producer.initTransactions();
            boolean aborted = false;
            for (int i = 0; i < inputs.size(); i += RUNS.size()) {
                if (!aborted && i >= inputs.size() / 2) {
                    aborted = true;
                    producer.beginTransaction();
                    producer.send(samples(RUNS.getFirst(), List.of(Events.gauge("host", PROBE_METRIC, 100, 1e6))));
                    producer.flush();
                    producer.abortTransaction();
                }
                producer.beginTransaction();
                for (Record r : inputs.subList(i, Math.min(inputs.size(), i + RUNS.size()))) {
                    producer.send(r.input().lifecycle() != null
                            ? new ProducerRecord<>(TopicCatalog.RUNS, r.runId(), EventSerdes.lifecycle()
                                    .serialize(TopicCatalog.RUNS, r.input().lifecycle()))
                            : samples(r.runId(), r.input().samples()));
                }
                producer.commitTransaction();
                produced.addAndGet(Math.min(RUNS.size(), inputs.size() - i));
                Thread.sleep(PACE.toMillis() * RUNS.size());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ProducerRecord<String, byte[]> samples(String runId, List<dev.caplab.schema.event.Sample> s) {
        return new ProducerRecord<>(TopicCatalog.SAMPLES, runId, EventSerdes.sampleBatch()
                .serialize(TopicCatalog.SAMPLES, Events.batch(runId, s)));
    }

    /** The same input through the production topology on a TopologyTestDriver, never interrupted: last fit per key. */
    private static Map<String, CapacityFit> uninterruptedFits() throws IOException {
        Path state = Files.createTempDirectory(ENV.dir(), "ttd");
        try (TopologyFixture t = new TopologyFixture(CrashChild.settings("unused:9092", state).topology(), state)) {
            for (Record r : interleaved()) {
                if (r.input().lifecycle() != null) {
                    t.lifecycle(r.runId(), r.input().lifecycle());
                } else {
                    t.samples(r.runId(), r.input().samples());
                }
            }
            t.advanceWallClock(Duration.ofSeconds(31));
            return latest(t.fits.readValuesToList());
        }
    }

    private static Map<String, CapacityFit> latest(List<CapacityFit> fits) {
        Map<String, CapacityFit> out = new HashMap<>();
        fits.forEach(f -> out.put(f.getRunId() + "/" + f.getSource() + "/" + f.getMetric(), f));
        return out;
    }

    private static Process child(int n) throws IOException {
        Path log = ENV.dir().resolve("child-" + n + ".log");
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m",
                "-cp", System.getProperty("java.class.path"), CrashChild.class.getName(), ENV.bootstrap(),
                ENV.db().jdbcUrl(), EmbeddedClickHouse.shared().user(), EmbeddedClickHouse.shared().password(),
                ENV.dir().resolve("streams-state").toString());
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static void awaitReady(Process child, int n) throws Exception {
        await(Duration.ofSeconds(120), () -> {
            if (!child.isAlive()) {
                throw new AssertionError("child " + n + " exited with " + child.exitValue() + ":\n" + log(n));
            }
            return log(n).contains(CrashChild.READY);
        }, n);
    }

    private static String log(int n) {
        try {
            return Files.readString(ENV.dir().resolve("child-" + n + ".log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private static void await(Duration timeout, BooleanSupplier condition, int child) throws InterruptedException {
        ItEnvironment.await(timeout, condition, () -> {
            String text = log(child);
            return "; child " + child + " log tail:\n" + text.substring(Math.max(0, text.length() - 4000));
        });
    }

    private static long samplesInStore() {
        return ENV.scalar("SELECT count() FROM samples");
    }

    private static Map<String, String> storedTotals() {
        Map<String, String> out = new HashMap<>();
        ENV.query("SELECT run_id, source, metric, count(), sum(value) FROM samples GROUP BY run_id, source, metric",
                rs -> out.put(new Key(rs.getString(1), CommittedInput.WHOLE_RUN, rs.getString(2), rs.getString(3)).toString(),
                        rs.getLong(4) + "/" + sumText(rs.getDouble(5))));
        return out;
    }

    /** Sums compared to 9 significant digits: ClickHouse and the oracle add in different orders. */
    private static String sumText(double sum) {
        return String.format("%.9g", sum);
    }
}
