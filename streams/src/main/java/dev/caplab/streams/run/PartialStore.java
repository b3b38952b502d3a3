package dev.caplab.streams.run;

import dev.caplab.streams.aggregate.BufferedSample;
import dev.caplab.streams.aggregate.Partial;
import dev.caplab.streams.aggregate.Priors;
import dev.caplab.streams.aggregate.ToolTotalsMean;
import dev.caplab.streams.fit.SourceFacts;
import dev.caplab.streams.step.SampleKeys;
import dev.caplab.streams.step.StepWindow;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.streams.aggregate.TimedValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The per-second partials of every run (see {@link SampleKeys#partial}): {@code fold} merges a batch's samples into
 * one entry per series and second — one read and one write per series-second of the batch, so the store and its
 * changelog grow with series × seconds, not with samples. Partials stay until the run's state expires, so a step can
 * be computed again whenever a late sample or a later lifecycle event changes it.
 */
final class PartialStore {

    private final KeyValueStore<String, Partial> store;
    /** The sources of the step whose facts were last asked for; forgotten whenever a partial changes. */
    private StepFacts lastFacts;

    PartialStore(KeyValueStore<String, Partial> store) {
        this.store = store;
    }

    /** Folds the samples into their partials; returns the number of partials written. */
    int fold(String runId, List<BufferedSample> samples) {
        lastFacts = null;
        // Keyed by series and second first: the store key is built once per partial, not once per sample.
        Map<SeriesSecond, Partial> touched = new LinkedHashMap<>();
        for (BufferedSample s : samples) {
            long bucket = SampleKeys.bucketOf(s.timestampMicros());
            SeriesSecond at = new SeriesSecond(s.seriesKey(), bucket);
            Partial p = touched.get(at);
            if (p == null) {
                p = store.get(at.storeKey(runId));
                if (p == null) {
                    p = Partial.empty(bucket, s);
                }
                touched.put(at, p);
            }
            p.add(s);
        }
        touched.forEach((at, p) -> store.put(at.storeKey(runId), p));
        return touched.size();
    }

    private record SeriesSecond(String seriesKey, long bucketMicros) {
        String storeKey(String runId) {
            return SampleKeys.partial(runId, bucketMicros, seriesKey);
        }
    }

    /** The run's partials whose second starts in [fromMicros, toMicros), in key order (time, then series). */
    List<Partial> range(String runId, long fromMicros, long toMicros) {
        List<Partial> out = new ArrayList<>();
        try (KeyValueIterator<String, Partial> it = store.range(SampleKeys.lower(runId, fromMicros),
                SampleKeys.upperExclusive(runId, toMicros))) {
            it.forEachRemaining(e -> {
                if (e.value.bucketMicros() >= fromMicros && e.value.bucketMicros() < toMicros) {
                    out.add(e.value);
                }
            });
        }
        return out;
    }

    /**
     * Per series of {@code counterKeys} its last counter reading, and per series of {@code totalsKeys} its last
     * CUMULATIVE summary totals ({@link ToolTotalsMean#last}), before {@code beforeMicros} within {@code
     * lookbackMicros}: read newest second first, stopping once every series has one.
     */
    Priors priors(String runId, long beforeMicros, Set<String> counterKeys, Set<String> totalsKeys,
            long lookbackMicros) {
        Map<String, TimedValue> counters = new HashMap<>();
        Map<String, Partial.SummaryPoint> totals = new HashMap<>();
        if (counterKeys.isEmpty() && totalsKeys.isEmpty() || beforeMicros <= 0) {
            return Priors.NONE;
        }
        long from = Math.max(0, beforeMicros - lookbackMicros);
        try (KeyValueIterator<String, Partial> it = store.reverseRange(SampleKeys.lower(runId, from),
                SampleKeys.upperExclusive(runId, beforeMicros))) {
            while (it.hasNext() && (counters.size() < counterKeys.size() || totals.size() < totalsKeys.size())) {
                Partial p = it.next().value;
                if (p.bucketMicros() >= beforeMicros) {
                    continue;
                }
                if (p.kind() == SampleKind.COUNTER && !p.points().isEmpty() && counterKeys.contains(p.seriesKey())) {
                    counters.putIfAbsent(p.seriesKey(), p.points().getLast());
                } else if (p.kind() == SampleKind.SUMMARY && totalsKeys.contains(p.seriesKey())
                        && !totals.containsKey(p.seriesKey())) {
                    ToolTotalsMean.last(p).ifPresent(t -> totals.put(p.seriesKey(), t));
                }
            }
        }
        return new Priors(counters, totals);
    }

    /** Roles and own ceilings of the sources seen in {@code step} (a run's sources and hosts do not change). */
    SourceFacts sourceFacts(String runId, StepWindow step) {
        StepFacts known = lastFacts;
        if (known != null && known.runId().equals(runId) && known.startMicros() == step.startMicros()
                && known.endMicros() == step.endMicros()) {
            return known.facts();
        }
        return sourceFacts(runId, step, range(runId, step.startMicros(), step.endMicros()));
    }

    /**
     * As {@link #sourceFacts(String, StepWindow)}, from the step's partials the caller has just read: kept, so the
     * refit and conclusion after a step closes do not read its partials again, until the next fold or deletion.
     */
    SourceFacts sourceFacts(String runId, StepWindow step, List<Partial> inStep) {
        SourceFacts facts = SourceFacts.of(inStep);
        lastFacts = new StepFacts(runId, step.startMicros(), step.endMicros(), facts);
        return facts;
    }

    /** The sources of one step of one run, as its partials gave them. */
    private record StepFacts(String runId, long startMicros, long endMicros, SourceFacts facts) {
    }

    /** Deletes every partial of the run (when its state expires). */
    void deleteRun(String runId) {
        lastFacts = null;
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<String, Partial> it = store.range(SampleKeys.runLower(runId),
                SampleKeys.runUpper(runId))) {
            it.forEachRemaining(e -> keys.add(e.key));
        }
        keys.forEach(k -> store.put(k, null));
    }

}
