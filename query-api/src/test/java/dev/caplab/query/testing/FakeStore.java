package dev.caplab.query.testing;

import dev.caplab.query.conclusion.BottleneckView;
import dev.caplab.query.conclusion.ConclusionReader;
import dev.caplab.query.conclusion.ConclusionView;
import dev.caplab.query.conclusion.EstimateView;
import dev.caplab.query.fits.FitReader;
import dev.caplab.query.fits.FitView;
import dev.caplab.query.runs.AlertReader;
import dev.caplab.query.runs.LatenessReader;
import dev.caplab.query.runs.RunLateness;
import dev.caplab.query.runs.RunReader;
import dev.caplab.query.runs.RunSummary;
import dev.caplab.query.steps.StepAggregateView;
import dev.caplab.query.steps.StepReader;
import dev.caplab.query.steps.StepView;
import dev.caplab.store.access.RunFilter;
import dev.caplab.store.row.AlertRow;
import dev.caplab.store.row.SloRuleValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** In-memory runs, steps and fits for controller slice tests; the ITs read the real store instead. */
public final class FakeStore implements dev.caplab.query.endpoints.EndpointSamples, RunReader, StepReader, FitReader, AlertReader, LatenessReader,
        ConclusionReader {

    public final List<RunSummary> runs = new ArrayList<>();
    public final List<StepView> steps = new ArrayList<>();
    public final List<StepAggregateView> aggregates = new ArrayList<>();
    public final List<FitView> fits = new ArrayList<>();
    public final List<AlertRow> alerts = new ArrayList<>();
    public final Map<String, RunLateness> lateness = new HashMap<>();
    public final Map<String, ConclusionView> conclusions = new HashMap<>();
    public RunFilter lastFilter;

    /** EP19's LightNode 1 vCPU node: 10..18 concurrent pass, 19 fails with the CPU cliff. */
    public static FakeStore withLightNode1Vcpu() {
        FakeStore store = new FakeStore();
        store.runs.add(new RunSummary("ln-1vcpu", Instant.parse("2026-07-28T10:00:00Z"),
                Instant.parse("2026-07-28T11:00:00Z"), "COMPLETED", "mmx", "0.9", "lightnode", "manila", "1c2g",
                "1vcpu-2gb", 1.0, 2L << 30, 1000.0, 100.0, "whep-loadgen", "viewers", Map.of("episode", "ep19"),
                "DECLARED"));
        double[] xs = {10, 15, 17, 18, 19};
        double[] cpu = {0.26, 0.45, 0.47, 0.45, 0.95};
        for (int i = 0; i < xs.length; i++) {
            boolean pass = xs[i] < 19;
            store.steps.add(new StepView("ln-1vcpu", i, Map.of("viewers", xs[i]), xs[i],
                    Instant.parse("2026-07-28T10:00:00Z").plusSeconds(120L * i), null, 15_000, pass, false, null,
                    pass ? null : "cpu.cores", pass ? "" : "dropped-frames (observed 42.0)", 0));
            store.aggregates.add(new StepAggregateView("ln-1vcpu", i, xs[i], "node", "cpu.cores", "GAUGE", 120, 15,
                    cpu[i], cpu[i] * 1.1, cpu[i], cpu[i] * 0.9, cpu[i] * 1.1, cpu[i], null, cpu[i] * 1.05, null,
                    null, cpu[i] - 0.02, false, Instant.parse("2026-07-28T10:00:00Z").plusSeconds(120L * i),
                    Instant.parse("2026-07-28T10:02:00Z").plusSeconds(120L * i), 0));
        }
        store.fits.add(FitView.of("ln-1vcpu", "node", "cpu.cores", "segmented-1", "1", "viewers", 5,
                List.of(new FitView.Segment(10, 18, 0.05, 0.022, 0.004), new FitView.Segment(18, 19, -8.5, 0.5, null)),
                List.of(new FitView.Breakpoint(18.0, 0.3, 17.4, 18.6)), 0.01, 0.97, true, 4, 1.0, 0.6, 18.0, true,
                Instant.parse("2026-07-28T11:00:00Z")));
        // the cpu line 0.05 + 0.022·x reaches 0.6 of 1 vCPU at 25 viewers, past the cliff after 18: 18 is safe
        store.conclusions.put("ln-1vcpu", new ConclusionView(18.0, 3, 19.0, 4, 5, 0,
                new BottleneckView("node", "cpu.cores", "SMALLEST_SAFE_CAPACITY", 18.0, null, "sut"), 0.6,
                List.of(new EstimateView("node", "cpu.cores", 0.05, 0.022, null, 0.004 * 0.004, null, null, 2, 4, null,
                        10, 18, 1.0, 18.0, null, null, null, true, 18.0, true, 4, 18.0, "sut")),
                true, "caplab-run-conclusion/1", Instant.parse("2026-07-28T11:00:00Z"), 9));
        return store;
    }

    @Override
    public List<RunSummary> find(RunFilter filter) {
        lastFilter = filter;
        return runs.stream().filter(r -> filter.provider() == null || filter.provider().equals(r.provider()))
                .skip(filter.offset()).limit(filter.limit()).toList();
    }

    @Override
    public List<dev.caplab.store.row.RunKindCount> kinds() {
        return kinds(runs);
    }

    @Override
    public List<dev.caplab.store.row.RunKindCount> kinds(RunFilter filter) {
        return kinds(runs.stream().filter(r -> matches(filter.sutName(), r.sutName())
                && matches(filter.tier(), r.tier()) && matches(filter.tool(), r.tool())
                && matches(filter.provider(), r.provider()) && matches(filter.status(), r.status())
                && matches(filter.loadExpression(), r.loadExpression())).toList());
    }

    @Override
    public Map<String, RunSummary> newestOfTiers(String sutName, java.util.Collection<String> tiers) {
        Map<String, RunSummary> newest = new HashMap<>();
        runs.stream().filter(r -> matches(sutName, r.sutName()) && tiers.contains(r.tier()))
                .forEach(r -> newest.merge(r.tier(), r, (a, b) -> b.startedAt().isAfter(a.startedAt()) ? b : a));
        return newest;
    }

    private static boolean matches(String wanted, String value) {
        return wanted == null || wanted.isEmpty() || wanted.equals(value);
    }

    private static List<dev.caplab.store.row.RunKindCount> kinds(List<RunSummary> of) {
        Map<List<String>, Long> counts = new HashMap<>();
        of.forEach(r -> counts.merge(java.util.Arrays.asList(r.sutName(), r.sutVersion(), r.tier(), r.provider(),
                r.tool(), r.status(), r.loadExpression()), 1L, Long::sum));
        return counts.entrySet().stream().map(e -> new dev.caplab.store.row.RunKindCount(e.getKey().get(0),
                e.getKey().get(1), e.getKey().get(2), e.getKey().get(3), e.getKey().get(4), e.getKey().get(5),
                e.getKey().get(6), e.getValue())).toList();
    }

    @Override
    public Optional<RunSummary> get(String runId) {
        return runs.stream().filter(r -> r.runId().equals(runId)).findFirst();
    }

    @Override
    public Optional<Instant> deletedAt(String runId) {
        return Optional.empty();
    }

    @Override
    public List<RunSummary> getAll(List<String> runIds) {
        return runIds.stream().flatMap(id -> get(id).stream()).toList();
    }

    @Override
    public List<StepView> steps(String runId) {
        return steps.stream().filter(s -> s.runId().equals(runId)).toList();
    }

    @Override
    public List<StepAggregateView> aggregates(String runId, Optional<String> metric, Optional<String> source) {
        return aggregates.stream().filter(a -> a.runId().equals(runId))
                .filter(a -> metric.map(a.metric()::equals).orElse(true))
                .filter(a -> source.map(a.source()::equals).orElse(true)).toList();
    }

    @Override
    public List<FitView> fits(String runId, Optional<String> metric) {
        return fits.stream().filter(f -> f.runId().equals(runId))
                .filter(f -> metric.map(f.metric()::equals).orElse(true)).toList();
    }

    @Override
    public List<FitView> fitsOfRuns(java.util.Collection<String> runIds) {
        return fits.stream().filter(f -> runIds.contains(f.runId())).sorted(java.util.Comparator
                .comparing(FitView::runId).thenComparing(FitView::metric).thenComparing(FitView::source)).toList();
    }

    @Override
    public List<AlertRow> alerts(String runId) {
        return alerts.stream().filter(a -> a.runId().equals(runId)).toList();
    }

    @Override
    public Optional<ConclusionView> conclusion(String runId) {
        return Optional.ofNullable(conclusions.get(runId));
    }

    @Override
    public Map<String, ConclusionView> conclusions(java.util.Collection<String> runIds) {
        Map<String, ConclusionView> out = new java.util.TreeMap<>(conclusions);
        out.keySet().retainAll(runIds);
        return out;
    }

    @Override
    public RunLateness lateness(String runId) {
        return lateness.getOrDefault(runId, RunLateness.NONE);
    }

    @Override
    public List<SloRuleValue> sloRules(String runId) {
        return List.of();
    }

    @Override
    public List<dev.caplab.store.row.TrafficPointRow> points(String runId,
            List<dev.caplab.store.access.TrafficSampleRepository.SeriesSelection> selections) {
        return List.of();
    }

    @Override
    public dev.caplab.store.row.RequestGroupRows requestGroups(String runId, java.util.Collection<String> metrics,
            String requiredLabel, List<List<String>> keyLabels, Map<String, String> failureLabels, boolean onlyFailed,
            long[] fromMicros, long[] toMicros, List<Double> quantiles) {
        return new dev.caplab.store.row.RequestGroupRows(List.of(), List.of());
    }
}
