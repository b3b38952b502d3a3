package dev.caplab.sink.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.analysis.throughput.TrafficMetrics;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.store.access.StepAggregateRepository;
import dev.caplab.streams.SyntheticRun;
import dev.caplab.sink.it.CommittedInput.Expected;
import dev.caplab.sink.it.CommittedInput.Key;
import dev.caplab.sink.it.CommittedInput.StoredSample;
import dev.caplab.streams.it.PacedInput;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * What a fault test asserts after the fault, against the read_committed oracle ({@link CommittedInput}): every
 * committed sample stored exactly once, and every step of every run aggregated once, field by field as the oracle
 * recomputes it, with the throughput series streams derives from the per-request latency samples.
 */
final class ExactlyOnceChecks {

    private ExactlyOnceChecks() {
    }

    /**
     * The samples table holds each committed sample of {@code runs} once and nothing else: the multiset of (series,
     * timestamp, value) equals the oracle's, so a lost, duplicated or aborted sample shows up by its key.
     */
    static void samplesStoredOnce(ItEnvironment env, CommittedInput oracle, List<String> runs) {
        assertThat(oracle.samplesPerRun()).as("every run's samples committed once, the aborted probe not at all")
                .isEqualTo(runs.stream().collect(Collectors.toMap(r -> r, r -> (long) SyntheticRun.sampleCount())));
        Map<StoredSample, Long> stored = new HashMap<>();
        env.query("SELECT run_id, source, metric, toUnixTimestamp64Micro(ts), value, count() FROM samples"
                        + " GROUP BY run_id, source, metric, ts, value",
                rs -> stored.put(new StoredSample(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4),
                        rs.getDouble(5)), rs.getLong(6)));
        assertThat(stored).isEqualTo(oracle.samples());
        assertThat(env.scalar("SELECT count() FROM samples WHERE metric = '" + PacedInput.PROBE_METRIC + "'")).isZero();
    }

    /**
     * Every (run, step, source, metric) of the oracle, the baseline and all {@link SyntheticRun#STEPS} steps of every
     * run, was emitted once to the committed output and is stored (FINAL) with the oracle's count, warm-up count,
     * sum, min and max (gauges) or the generator's rate (counters).
     *
     * @return how many aggregates are stored
     */
    static int stepAggregatesMatchOracle(ItEnvironment env, CommittedInput oracle, List<String> runs) {
        Map<Key, Expected> expected = oracle.stepAggregates();
        Map<Key, Expected> derived = derivedThroughput(expected);
        for (String run : runs) {
            assertThat(expected.keySet().stream().filter(k -> k.runId().equals(run)).map(Key::step)
                    .collect(Collectors.toSet())).as("steps of " + run + " in the oracle")
                    .isEqualTo(IntStream.range(CommittedInput.BASELINE, SyntheticRun.STEPS).boxed()
                            .collect(Collectors.toSet()));
        }
        List<StepAggregate> committed = CommittedInput.committed(env.bootstrap(), TopicCatalog.STEP_AGGREGATES,
                (t, b) -> EventSerdes.stepAggregate().deserialize(t, b));
        Map<Key, Long> emitted = committed.stream().collect(Collectors.groupingBy(a -> new Key(a.getRunId().toString(),
                a.getStepIndex(), a.getSource().toString(), a.getMetric().toString()), Collectors.counting()));
        assertThat(emitted.keySet()).isEqualTo(union(expected, derived).keySet());
        assertThat(emitted.values()).as("no aggregate emitted twice across the fault").containsOnly(1L);

        Map<Key, StepAggregate> stored = storedAggregates(env, runs);
        assertThat(stored.keySet()).isEqualTo(union(expected, derived).keySet());
        derived.forEach((key, want) -> {
            StepAggregate got = stored.get(key);
            if (!key.metric().equals(MetricNames.THROUGHPUT_ERRORS_RATIO)) {
                assertThat(got.getCount()).as("requests " + key).isEqualTo(want.count());
                assertThat(got.getWarmupCount()).as("warm-up requests " + key).isEqualTo(want.warmupCount());
            }
        });
        expected.forEach((key, want) -> {
            StepAggregate got = stored.get(key);
            assertThat(got.getCount()).as("count " + key).isEqualTo(want.count());
            assertThat(got.getWarmupCount()).as("warm-up " + key).isEqualTo(want.warmupCount());
            if (want.kind() == SampleKind.GAUGE) {
                assertThat(got.getSum()).as("sum " + key).isCloseTo(want.sum(), within(1e-9 * Math.abs(want.sum())));
                assertThat(got.getMin()).as("min " + key).isEqualTo(want.min());
                assertThat(got.getMax()).as("max " + key).isEqualTo(want.max());
            } else {
                // Golden figure of the generator: the tx counter grows 10 kB/s per user.
                assertThat(got.getRatePerSecond()).as("rate " + key)
                        .isCloseTo(10_000 * SyntheticRun.users(key.step()), within(1e-6));
            }
        });
        return stored.size();
    }

    /** Every aggregate the store must hold for the oracle's input: the samples' and the derived throughput series. */
    static int expectedAggregates(CommittedInput oracle) {
        Map<Key, Expected> raw = oracle.stepAggregates();
        return union(raw, derivedThroughput(raw)).size();
    }

    /**
     * The per-step throughput series streams derives (source {@link MetricNames#THROUGHPUT_SOURCE}) in every step, baseline
     * excluded, whose samples include per-request latencies: requests per second and latency count the steady
     * requests and carry the warm-up ones as warm-up; the error ratio is only expected to be there.
     */
    static Map<Key, Expected> derivedThroughput(Map<Key, Expected> raw) {
        Map<Key, Expected> requests = new HashMap<>();
        raw.forEach((k, e) -> {
            if (k.step() >= 0 && TrafficMetrics.LATENCY_PER_REQUEST_MS.contains(k.metric())) {
                requests.merge(new Key(k.runId(), k.step(), MetricNames.THROUGHPUT_SOURCE, ""),
                        new Expected(e.kind(), e.count() - e.warmupCount(), e.warmupCount(), 0, 0, 0),
                        (a, b) -> new Expected(a.kind(), a.count() + b.count(), a.warmupCount() + b.warmupCount(),
                                0, 0, 0));
            }
        });
        Map<Key, Expected> out = new HashMap<>();
        requests.forEach((k, e) -> {
            for (String metric : List.of(MetricNames.THROUGHPUT_REQUESTS_PER_S, MetricNames.THROUGHPUT_ERRORS_RATIO,
                    MetricNames.THROUGHPUT_LATENCY_MS)) {
                out.put(new Key(k.runId(), k.step(), k.source(), metric), e);
            }
        });
        return out;
    }

    private static Map<Key, Expected> union(Map<Key, Expected> a, Map<Key, Expected> b) {
        Map<Key, Expected> out = new HashMap<>(a);
        out.putAll(b);
        return out;
    }

    /** The stored (FINAL) aggregates of {@code runs} by key. */
    static Map<Key, StepAggregate> storedAggregates(ItEnvironment env, List<String> runs) {
        Map<Key, StepAggregate> out = new HashMap<>();
        var repository = new StepAggregateRepository(env.db().dataSource());
        for (String run : runs) {
            repository.ofRun(run).forEach(a -> out.put(new Key(a.getRunId(), a.getStepIndex(), a.getSource(),
                    a.getMetric()), a));
        }
        return out;
    }
}
