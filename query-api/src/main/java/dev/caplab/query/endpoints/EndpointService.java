package dev.caplab.query.endpoints;

import dev.caplab.query.runs.RunNotFoundException;
import dev.caplab.store.access.DeletedRunRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.access.RunSteps;
import dev.caplab.store.access.TrafficSampleRepository;
import dev.caplab.analysis.throughput.TrafficMetrics;
import dev.caplab.query.runs.RunNotFoundException;
import dev.caplab.store.row.RunStep;
import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.store.access.TrafficSampleRepository.SeriesSelection;
import dev.caplab.store.row.RequestGroupRow;
import dev.caplab.store.row.RequestGroupRows;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.stereotype.Service;

/**
 * A run's per-endpoint and error tables, read from its raw samples in ClickHouse on each call: the store keeps the
 * tools' per-endpoint rows labelled, so the breakdown needs no derived state, scales with the store (three queries per
 * call, each over the run's own part of the primary key) and any query-api process answers it. Steps are the run's
 * steps as stored ({@link RunStep#of}); each step's figures cover its steady part, from its start plus warm-up to
 * its end, as its total row does.
 */
@Service
public class EndpointService {

    private static final Set<String> POINT_METRICS = union(TrafficMetrics.REQUEST_COUNTERS,
            TrafficMetrics.FAILURE_COUNTERS, TrafficMetrics.ERROR_COUNTERS, Set.of(MetricNames.HTTP_DURATION_MS));
    private static final Set<String> WINDOW_GAUGES = union(TrafficMetrics.ERROR_WINDOW_COUNTS,
            Set.of(MetricNames.HTTP_REQS_PER_S));
    private static final List<List<String>> ENDPOINT_KEY = List.of(List.of(LabelNames.NAME),
            List.of(LabelNames.METHOD), TrafficMetrics.STATUS_LABELS);
    private static final List<List<String>> ERROR_KEY = List.of(List.of(LabelNames.NAME), List.of(LabelNames.METHOD),
            TrafficMetrics.STATUS_LABELS, TrafficMetrics.ERROR_MESSAGE_LABELS);

    private final RunRepository runs;
    private final DeletedRunRepository deletions;
    private final RunSteps steps;
    private final TrafficSampleRepository samples;

    EndpointService(RunRepository runs, DeletedRunRepository deletions, RunSteps steps,
            TrafficSampleRepository samples) {
        this.runs = runs;
        this.deletions = deletions;
        this.steps = steps;
        this.samples = samples;
    }

    /** The run's tables; throws {@link RunNotFoundException} for an unknown run. */
    public RunEndpoints of(String runId) {
        RunNotFoundException.require(runId, runs, deletions);
        List<RunStep> bounded = steps.ofRun(runId).stream().filter(s -> s.startedAt() != null).toList();
        long[] from = new long[bounded.size()];
        long[] to = new long[bounded.size()];
        for (int i = 0; i < bounded.size(); i++) {
            from[i] = micros(bounded.get(i).startedAt()) + bounded.get(i).warmupMillis() * 1_000L;
            to[i] = bounded.get(i).endedAt() == null ? Long.MAX_VALUE : micros(bounded.get(i).endedAt());
        }
        EndpointBreakdown breakdown = new EndpointBreakdown(samples.points(runId, List.of(
                new SeriesSelection(POINT_METRICS, Set.of("COUNTER", "SUMMARY")),
                new SeriesSelection(WINDOW_GAUGES, Set.of("GAUGE")))));

        RequestGroupRows requests = groups(runId, ENDPOINT_KEY, false, from, to);
        RequestGroupRows failures = groups(runId, ERROR_KEY, true, from, to);
        List<StepEndpoints> stepTables = new ArrayList<>();
        for (int i = 0; i < bounded.size(); i++) {
            RunStep s = bounded.get(i);
            int slot = i + 1;
            EndpointBreakdown.RequestGroups g = new EndpointBreakdown.RequestGroups(inSlot(requests.perSlot(), slot),
                    inSlot(failures.perSlot(), slot));
            stepTables.add(new StepEndpoints(s.stepIndex(), s.load(), s.x(), Instant.ofEpochSecond(0,
                    from[i] * 1_000L), s.endedAt(), breakdown.endpoints(from[i], to[i], false, g),
                    breakdown.errors(from[i], to[i], false, g.failures())));
        }
        EndpointBreakdown.RequestGroups whole = new EndpointBreakdown.RequestGroups(requests.wholeRun(),
                failures.wholeRun());
        return new RunEndpoints(runId, breakdown.endpoints(Long.MIN_VALUE, Long.MAX_VALUE, true, whole),
                breakdown.errors(Long.MIN_VALUE, Long.MAX_VALUE, true, failures.wholeRun()), stepTables);
    }

    /** The run's per-request groups of {@code key}, per step slot and over the whole run, in one read. */
    private RequestGroupRows groups(String runId, List<List<String>> key, boolean onlyFailed, long[] from,
            long[] to) {
        return samples.requestGroups(runId, TrafficMetrics.LATENCY_PER_REQUEST_MS, LabelNames.NAME, key,
                TrafficMetrics.FAILURE_LABELS, onlyFailed, from, to, EndpointBreakdown.QUANTILES);
    }

    private static List<RequestGroupRow> inSlot(List<RequestGroupRow> rows, int slot) {
        return rows.stream().filter(r -> r.slot() == slot).toList();
    }

    private static long micros(Instant t) {
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000L;
    }

    @SafeVarargs
    private static Set<String> union(Set<String>... sets) {
        Set<String> out = new HashSet<>();
        for (Set<String> s : sets) {
            out.addAll(s);
        }
        return Set.copyOf(out);
    }
}
