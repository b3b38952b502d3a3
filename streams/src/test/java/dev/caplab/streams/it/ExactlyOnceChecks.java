package dev.caplab.streams.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.store.access.StepAggregateRepository;
import dev.caplab.store.row.StepAggregateRow;
import dev.caplab.streams.SyntheticRun;
import dev.caplab.streams.it.CommittedInput.Expected;
import dev.caplab.streams.it.CommittedInput.Key;
import dev.caplab.streams.it.CommittedInput.StoredSample;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * What a fault test asserts after the fault, against the read_committed oracle ({@link CommittedInput}): every
 * committed sample stored exactly once, and every step of every run aggregated once, field by field as the oracle
 * recomputes it.
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
        assertThat(emitted.keySet()).isEqualTo(expected.keySet());
        assertThat(emitted.values()).as("no aggregate emitted twice across the fault").containsOnly(1L);

        Map<Key, StepAggregateRow> stored = storedAggregates(env, runs);
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
        return stored.size();
    }

    /** The stored (FINAL) aggregates of {@code runs} by key. */
    static Map<Key, StepAggregateRow> storedAggregates(ItEnvironment env, List<String> runs) {
        Map<Key, StepAggregateRow> out = new HashMap<>();
        var repository = new StepAggregateRepository(env.db().dataSource());
        for (String run : runs) {
            repository.ofRun(run).forEach(a -> out.put(new Key(a.runId(), a.stepIndex(), a.source(), a.metric()), a));
        }
        return out;
    }
}
