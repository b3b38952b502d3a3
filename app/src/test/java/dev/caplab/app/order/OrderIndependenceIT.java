package dev.caplab.app.order;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.CapacityFit;
import dev.caplab.broker.BrokerSettings;
import dev.caplab.broker.EmbeddedKafkaBroker;
import dev.caplab.ingest.adapter.AdapterOptions;
import dev.caplab.ingest.adapter.Adapters;
import dev.caplab.ingest.adapter.InputPublisher;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.schema.sample.Samples;
import dev.caplab.ingest.locust.LocustAdapter;
import dev.caplab.ingest.publish.KafkaSampleSink;
import dev.caplab.ingest.publish.LifecyclePublisher;
import dev.caplab.ingest.publish.ProducerSettings;
import dev.caplab.schema.event.Environment;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.RunStatus;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SloRule;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.schema.event.SystemUnderTest;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.StepAggregateRepository;
import dev.caplab.store.access.StepVerdictRepository;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.store.testing.TestDatabase;
import dev.caplab.streams.StreamsRunner;
import dev.caplab.streams.StreamsSettings;
import dev.caplab.streams.TopologySettings;
import dev.caplab.sink.ClickHouseSink;
import dev.caplab.sink.SinkSettings;
import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.avro.specific.SpecificRecord;
import org.assertj.core.api.SoftAssertions;
import org.assertj.core.api.recursive.comparison.RecursiveComparisonConfiguration;
import org.junit.jupiter.api.Test;

/**
 * Issue 13, item 4: the answer never depends on the order in which sources arrive. One stepped run — its lifecycle
 * (run start, four steps, run end), a Locust {@code _stats_history.csv} through the real adapter and two host samplers
 * (caplab's host vocabulary) — is fed through the real ingest publishers, Kafka, Streams and the sink into ClickHouse
 * in three orders, each source whole before the next and each order into a fresh run id on one stack: lifecycle
 * first, lifecycle last, and a host sampler before everything (the case: a sampler lagging behind the load
 * tool, or yesterday's files ingested one by one). Step aggregates, verdicts and fits must be identical field for
 * field, but for the fields that name the run or the emission ({@link #NOT_THE_ANSWER}).
 *
 * <p>Every value is a dyadic rational of a few bits (multiples of 1/64, integers) so every sum, mean and sum of
 * squares is exact in any summation order: doubles are compared exactly, no tolerance.
 */
class OrderIndependenceIT {

    private static final int STEPS = 4;
    private static final int STEP_SECONDS = 30;
    private static final int WARMUP_SECONDS = 10;
    /** Host samplers run this long before the first step: the baseline. */
    private static final int BASELINE_SECONDS = 10;
    private static final int END_SECONDS = BASELINE_SECONDS + STEPS * STEP_SECONDS;
    private static final double FAILURES_PER_S_LIMIT = 2.0;
    /** The step whose Locust failure rate (4/s) breaks the limit; the others fail 1/s. */
    private static final int FAILING_STEP = 3;
    private static final List<String> HOSTS = List.of("app-1", "db-1");
    private static final String LIFECYCLE = "lifecycle";
    private static final String LOCUST = "locust";
    /** Which run, which emission of it, when the fit ran, how its inputs arrived (late counts): not the answer. */
    private static final String[] NOT_THE_ANSWER = {"runId", "version", "fittedAt", "lateCount", "lateSamples"};
    /**
     * The same answer: every field but {@link #NOT_THE_ANSWER} equal, doubles to 1e-15; two NaNs (a figure that is
     * unknown in both, such as the min of a mean read from a tool's totals) are the same answer.
     */
    private static final RecursiveComparisonConfiguration SAME_ANSWER = RecursiveComparisonConfiguration.builder()
            .withIgnoredFields(NOT_THE_ANSWER)
            .withEqualsForType((a, b) -> Objects.equals(a, b) || a != null && b != null && Math.abs(a - b) <= 1e-15,
                    Double.class)
            .build();
    private static final Duration SETTLE = Duration.ofSeconds(60);
    /** Locust 2.12's history header (cumulative mode), as in ingest's fixtures. */
    private static final String LOCUST_HEADER = "Timestamp,User Count,Type,Name,Requests/s,Failures/s,50%,66%,75%,"
            + "80%,90%,95%,98%,99%,99.9%,99.99%,100%,Total Request Count,Total Failure Count,Total Median Response "
            + "Time,Total Average Response Time,Total Min Response Time,Total Max Response Time,Total Average "
            + "Content Size";

    /** One arrival order of the run's sources. */
    private record Order(String name, List<String> sources) {
        String runId() {
            return "order-" + name;
        }
    }

    private static final List<Order> ORDERS = List.of(
            new Order("lifecycle-first", List.of(LIFECYCLE, LOCUST, "app-1", "db-1")),
            new Order("lifecycle-last", List.of(LOCUST, "app-1", "db-1", LIFECYCLE)),
            new Order("host-first", List.of("db-1", LIFECYCLE, LOCUST, "app-1")));

    /** What the pipeline concluded about one run, in a stable order. */
    private record Answer(List<StepAggregate> aggregates, List<StepVerdict> verdicts,
            List<CapacityFit> fits) {
    }

    /** Recent enough that no allowed lateness measured on the wall clock has passed; whole seconds. */
    private final Instant t0 = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(10));

    private static double users(int step) {
        return 10.0 * (step + 1);
    }

    /** The step of second {@code t}, -1 in the baseline. */
    private static int stepAt(int t) {
        return t < BASELINE_SECONDS ? -1 : (t - BASELINE_SECONDS) / STEP_SECONDS;
    }

    @Test
    void everyArrivalOrderGivesTheSameAggregatesVerdictsAndFits() throws Exception {
        Path dir = Files.createTempDirectory("caplab-order-it-");
        TestDatabase db = EmbeddedClickHouse.shared().freshDatabase("OrderIndependenceIT");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(BrokerSettings.loopback(dir.resolve("kafka"), 0));
                StreamsRunner streams = StreamsRunner.start(new StreamsSettings(broker.bootstrapServers(),
                        "caplab-order-it", dir.resolve("state"), Duration.ofMillis(200), 1,
                        TopologySettings.defaults().withGrace(Duration.ofSeconds(2))));
                ClickHouseSink sink = ClickHouseSink.start(SinkSettings.of(broker.bootstrapServers()),
                        db.dataSource());
                KafkaSampleSink samples = new KafkaSampleSink(new ProducerSettings(broker.bootstrapServers(),
                        "order-it-samples"));
                LifecyclePublisher lifecycle = new LifecyclePublisher(new ProducerSettings(
                        broker.bootstrapServers(), "order-it-lifecycle"))) {
            streams.awaitRunning(Duration.ofSeconds(60));
            for (Order order : ORDERS) {
                for (String source : order.sources()) {
                    switch (source) {
                        case LIFECYCLE -> lifecycleOf(order.runId()).forEach(e -> lifecycle.publish(e).join());
                        case LOCUST -> publishLocust(order.runId(), samples);
                        default -> publishHost(order.runId(), source, samples);
                    }
                }
            }

            var aggregates = new StepAggregateRepository(db.dataSource());
            var verdicts = new StepVerdictRepository(db.dataSource());
            var fits = new CapacityFitRepository(db.dataSource());
            long deadline = System.nanoTime() + SETTLE.toNanos();
            List<Answer> answers;
            do {
                Thread.sleep(500);
                answers = ORDERS.stream().map(o -> answer(o.runId(), aggregates, verdicts, fits)).toList();
            } while (!settled(answers) && System.nanoTime() < deadline);
            assertThat(sink.failure()).isNull();

            Answer reference = answers.getFirst();
            SoftAssertions soft = new SoftAssertions();
            for (int i = 1; i < ORDERS.size(); i++) {
                Answer other = answers.get(i);
                String label = ORDERS.get(i).name() + " vs " + ORDERS.getFirst().name() + " (" + summary(other)
                        + " vs " + summary(reference) + ")";
                soft.assertThat(other.aggregates()).as("step aggregates, " + label)
                        .usingRecursiveFieldByFieldElementComparator(SAME_ANSWER)
                        .containsExactlyElementsOf(reference.aggregates());
                soft.assertThat(other.verdicts()).as("verdicts, " + label)
                        .usingRecursiveFieldByFieldElementComparator(SAME_ANSWER)
                        .containsExactlyElementsOf(reference.verdicts());
                soft.assertThat(other.fits()).as("fits, " + label)
                        .usingRecursiveFieldByFieldElementComparator(SAME_ANSWER)
                        .containsExactlyElementsOf(reference.fits());
            }
            // the reference is the whole answer, known by construction: four verdicts, the failing step by its
            // Locust failure rate, both hosts' CPU aggregated in every step and fitted over all four
            String reference0 = ORDERS.getFirst().runId();
            soft.assertThat(reference.verdicts()).extracting(StepVerdict::getPassed)
                    .as("verdicts of %s", reference0).containsExactly(true, true, true, false);
            for (String host : HOSTS) {
                soft.assertThat(reference.aggregates()).as("cpu.cores aggregates of %s in %s", host, reference0)
                        .filteredOn(a -> a.getSource().equals(host) && a.getMetric().equals(MetricNames.CPU_CORES))
                        .extracting(StepAggregate::getStepIndex)
                        // the pre-test baseline (index -1, before the first step) and each of the four steps
                        .containsExactly(-1, 0, 1, 2, 3);
                soft.assertThat(reference.fits()).as("cpu.cores fit of %s in %s", host, reference0)
                        .anyMatch(f -> f.getSource().equals(host) && f.getMetric().equals(MetricNames.CPU_CORES)
                                && f.getStepsUsed() == STEPS);
            }
            soft.assertAll();
        } finally {
            EmbeddedClickHouse.shared().drop(db);
            try (var paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static Answer answer(String runId, StepAggregateRepository aggregates, StepVerdictRepository verdicts,
            CapacityFitRepository fits) {
        return new Answer(
                aggregates.ofRun(runId).stream().sorted(Comparator.comparingInt(StepAggregate::getStepIndex)
                        .thenComparing(StepAggregate::getSource).thenComparing(StepAggregate::getMetric)
                        .thenComparing(StepAggregate::getKind)).toList(),
                verdicts.ofRun(runId).stream().sorted(Comparator.comparingInt(StepVerdict::getStepIndex)).toList(),
                fits.ofRun(runId).stream().sorted(Comparator.comparing(CapacityFit::getSource)
                        .thenComparing(CapacityFit::getMetric)).toList());
    }

    /** Aggregates per source, verdicts, fits (source/metric/steps): what a failure message shows of an answer. */
    private static String summary(Answer a) {
        Map<String, Long> perSource = new TreeMap<>();
        a.aggregates().forEach(r -> perSource.merge(r.getSource(), 1L, Long::sum));
        return "aggregates " + perSource + ", verdicts " + a.verdicts().stream().map(StepVerdict::getPassed).toList()
                + ", fits " + a.fits().stream().map(f -> f.getSource() + "/" + f.getMetric() + "/" + f.getStepsUsed())
                        .toList();
    }

    private static boolean settled(List<Answer> answers) {
        return complete(answers.getFirst()) && answers.stream().allMatch(a -> same(answers.getFirst(), a));
    }

    private static boolean complete(Answer a) {
        return a.verdicts().size() == STEPS && HOSTS.stream().allMatch(h -> a.fits().stream().anyMatch(f ->
                f.getSource().equals(h) && f.getMetric().equals(MetricNames.CPU_CORES)
                        && f.getStepsUsed() == STEPS));
    }

    private static boolean same(Answer reference, Answer other) {
        try {
            assertThat(other.aggregates()).usingRecursiveFieldByFieldElementComparator(SAME_ANSWER)
                    .containsExactlyElementsOf(reference.aggregates());
            assertThat(other.verdicts()).usingRecursiveFieldByFieldElementComparator(SAME_ANSWER)
                    .containsExactlyElementsOf(reference.verdicts());
            assertThat(other.fits()).usingRecursiveFieldByFieldElementComparator(SAME_ANSWER)
                    .containsExactlyElementsOf(reference.fits());
            return true;
        } catch (AssertionError notYet) {
            return false;
        }
    }

    // ---- the run's sources --------------------------------------------------------------------------------------

    private List<SpecificRecord> lifecycleOf(String runId) {
        List<SloRule> rules = List.of(
                SloRule.newBuilder().setName("locust failures").setMetric(MetricNames.HTTP_FAILED_PER_S)
                        .setStatistic("mean").setComparator(dev.caplab.schema.event.Comparator.LE)
                        .setThreshold(FAILURES_PER_S_LIMIT).build(),
                SloRule.newBuilder().setName("cpu").setMetric(MetricNames.CPU_CORES).setStatistic("max")
                        .setComparator(dev.caplab.schema.event.Comparator.LE).setThreshold(8.0).build());
        List<SpecificRecord> events = new ArrayList<>();
        events.add(RunStarted.newBuilder().setRunId(runId).setStartedAt(t0)
                .setSut(SystemUnderTest.newBuilder().setName("backend").build())
                .setEnvironment(Environment.newBuilder().setProvider("test").setVcpu(4.0).setMemoryBytes(8L << 30)
                        .build())
                .setTool(LOCUST).setSloRules(rules).setLoadExpression("users").build());
        for (int step = 0; step < STEPS; step++) {
            int start = BASELINE_SECONDS + step * STEP_SECONDS;
            events.add(StepStarted.newBuilder().setRunId(runId).setStepIndex(step)
                    .setLoad(Map.of("users", users(step))).setStartedAt(t0.plusSeconds(start))
                    .setWarmupMicros(WARMUP_SECONDS * 1_000_000L).build());
            events.add(StepEnded.newBuilder().setRunId(runId).setStepIndex(step)
                    .setEndedAt(t0.plusSeconds(start + STEP_SECONDS)).build());
        }
        events.add(RunEnded.newBuilder().setRunId(runId).setEndedAt(t0.plusSeconds(END_SECONDS))
                .setStatus(RunStatus.COMPLETED).build());
        return events;
    }

    /**
     * A Locust history as Locust writes it without {@code --csv-full-history}: one Aggregated row a second during
     * the steps; 5 requests/s per user; 1 failure/s, 4 in the failing step; response times by step.
     */
    private String locustHistory() {
        StringBuilder csv = new StringBuilder(LOCUST_HEADER).append('\n');
        long requests = 0;
        long failures = 0;
        for (int t = BASELINE_SECONDS; t < END_SECONDS; t++) {
            int step = stepAt(t);
            long rps = Math.round(5 * users(step));
            long fps = step == FAILING_STEP ? 4 : 1;
            requests += rps;
            failures += fps;
            csv.append(t0.getEpochSecond() + t).append(',').append((long) users(step)).append(",,Aggregated,")
                    .append(String.format(Locale.ROOT, "%.6f,%.6f", (double) rps, (double) fps));
            for (int p : new int[] {20, 22, 24, 25, 30, 35, 40, 45, 50, 55, 60}) {
                csv.append(',').append(p + 4 * step);
            }
            csv.append(',').append(requests).append(',').append(failures).append(',').append(20 + step)
                    .append(',').append(21.5 + step).append(",2,").append(90 + step).append(",512.0\n");
        }
        return csv.toString();
    }

    private void publishLocust(String runId, KafkaSampleSink sink) throws Exception {
        List<String> errors = new ArrayList<>();
        new InputPublisher(Adapters.create(LocustAdapter.FORMAT, AdapterOptions.NONE), runId, sink, errors::add)
                .ingest("run_stats_history.csv", new BufferedReader(new StringReader(locustHistory())), false,
                        Clock.systemUTC());
        assertThat(errors).isEmpty();
    }

    /**
     * One host sampler, one sample per metric a second from the baseline to the run's end, published every 10 s as
     * the sampler does: CPU linear in users (app-1 0.0625 cores per user, db-1 0.03125) with a small periodic wobble,
     * memory a MiB per user, transmitted bytes a KiB per user a second.
     */
    private void publishHost(String runId, String host, KafkaSampleSink sink) {
        boolean app = host.equals(HOSTS.getFirst());
        double txBytes = 0;
        List<Sample> batch = new ArrayList<>();
        for (int t = 0; t < END_SECONDS; t++) {
            int step = stepAt(t);
            double users = step < 0 ? 0 : users(step);
            Instant at = t0.plusSeconds(t);
            double cores = app ? 0.25 + 0.0625 * users + (t % 4) * 0.015625 : 0.5 + 0.03125 * users + (t % 2) / 32.0;
            batch.add(Samples.gauge(at, host, MetricNames.CPU_CORES, cores, Map.of()));
            batch.add(Samples.gauge(at, host, MetricNames.MEM_BYTES, (app ? 1L << 30 : 1L << 31) + users * (1 << 20),
                    Map.of()));
            txBytes += users * 1024;
            batch.add(Samples.counter(at, host, MetricNames.NET_TX_BYTES, txBytes, Map.of()));
            if (t % 10 == 9) {
                sink.publish(runId, "host", List.copyOf(batch)).join();
                batch.clear();
            }
        }
    }
}
