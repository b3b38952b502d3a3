package dev.caplab.query.history;

import dev.caplab.store.access.RunRepository;
import dev.caplab.analysis.change.ChangeDetection;
import dev.caplab.analysis.change.ChangeOptions;
import dev.caplab.analysis.change.ChangePoint;
import dev.caplab.analysis.change.ChangeReport;
import dev.caplab.store.row.RunRow;
import dev.caplab.query.web.BadRequestParameterException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.springframework.stereotype.Service;

/**
 * Builds a cohort's run history: each {@link HistorySeries} against run start time, with change points found by
 * E-divisive and a Student t-test (analysis/change, Otava's defaults: p &lt; 0.001; no permutations, so the same
 * runs always give the same changes).
 */
@Service
public class HistoryService {

    /** Below this many runs with a value, only large changes can pass p &lt; 0.001 (ShortHistoryTest). */
    static final int FEW_RUNS = 6;

    private final RunRepository runs;
    private final StoredRunMetrics source;

    HistoryService(RunRepository runs, StoredRunMetrics source) {
        this.runs = runs;
        this.source = source;
    }

    History history(Optional<String> sut, Optional<String> tier, Optional<String> tool,
                    Optional<String> loadExpression, Optional<String> metric) {
        HistoryCohort cohort = HistoryCohort.select(runs, sut, tier, tool, loadExpression);
        List<RunMetrics> metrics = source.metricsOf(cohort.runs());
        List<String> warnings = new ArrayList<>();
        String resource;
        String chosenBy;
        if (metric.isPresent()) {
            resource = metric.get();
            Set<String> fitted = new TreeSet<>();
            metrics.forEach(m -> fitted.addAll(m.resources().keySet()));
            if (!fitted.contains(resource)) {
                throw new BadRequestParameterException("metric", resource, "no run of " + cohort.label()
                        + " has a fit of it; fitted: " + fitted);
            }
            chosenBy = "asked for (metric=" + resource + ")";
        } else {
            int latest = lastIndexWithBottleneck(metrics);
            resource = latest < 0 ? null : metrics.get(latest).bottleneck();
            chosenBy = latest < 0 ? "no run names a bottleneck: pass metric= to follow a resource's slope and knee"
                    : "the bottleneck of the most recent run that names one, " + metrics.get(latest).runId()
                            + "; pass metric= for another resource";
            long others = metrics.stream().filter(m -> m.bottleneck() != null && !m.bottleneck().equals(resource))
                    .count();
            if (others > 0) {
                warnings.add(others + " of " + metrics.size() + " runs name another bottleneck than " + resource
                        + ": the slope and knee drawn are " + resource + "'s in every run");
            }
        }
        if (cohort.matching() > cohort.runs().size()) {
            warnings.add("only the newest " + cohort.runs().size() + " of " + cohort.matching() + " ended runs are"
                    + " shown");
        }
        if (cohort.running() > 0) {
            warnings.add(cohort.running() + " running run(s) of " + cohort.label() + " left out until they end");
        }
        List<SeriesHistory> series = new ArrayList<>();
        for (HistorySeries s : HistorySeries.values()) {
            series.add(series(s, cohort.runs(), metrics, resource, warnings));
        }
        return new History(cohort.sut(), cohort.tier(), cohort.tool(), cohort.loadExpression(), resource, chosenBy,
                cohort.runs().size() + " runs of " + cohort.label() + ", oldest first",
                ChangeReport.MODEL_NAME + " " + ChangeReport.MODEL_VERSION, series, warnings);
    }

    private static SeriesHistory series(HistorySeries s, List<RunRow> runs, List<RunMetrics> metrics,
                                        String resource, List<String> warnings) {
        Double[] values = metrics.stream().map(m -> s.valueOf(m, resource)).toArray(Double[]::new);
        int[] withValue = IntStream.range(0, values.length).filter(i -> values[i] != null).toArray();
        double[] series = IntStream.of(withValue).mapToDouble(i -> values[i]).toArray();
        List<ChangePoint> changes = ChangeDetection.detect(series, ChangeOptions.DEFAULT).changePoints();
        Set<Integer> changedRuns = new TreeSet<>();
        List<ChangeMark> marks = new ArrayList<>();
        for (ChangePoint c : changes) {
            RunRow run = runs.get(withValue[c.index()]);
            changedRuns.add(withValue[c.index()]);
            marks.add(new ChangeMark(run.runId(), run.sutVersion(), run.startedAt(), c.meanBefore(), c.meanAfter(),
                    c.forwardChangePercent(), c.pValue()));
        }
        List<HistoryPoint> points = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            RunRow run = runs.get(i);
            points.add(new HistoryPoint(s.key(), run.runId(), run.startedAt(), run.sutVersion(), values[i],
                    changedRuns.contains(i)));
        }
        if (withValue.length < runs.size()) {
            warnings.add(s.label() + ": " + (runs.size() - withValue.length) + " of " + runs.size()
                    + " runs have no value and are left out of its change detection");
        }
        if (withValue.length > 0 && withValue.length < FEW_RUNS) {
            warnings.add(s.label() + ": only " + withValue.length + " runs with a value; changes this short a history"
                    + " can show are large ones (a halving), smaller shifts need more runs");
        }
        return new SeriesHistory(s.key(), s.label(), s == HistorySeries.MAX_STABLE_LOAD || s == HistorySeries.THROUGHPUT_LIMIT ? null : resource, points,
                marks);
    }

    private static int lastIndexWithBottleneck(List<RunMetrics> metrics) {
        for (int i = metrics.size() - 1; i >= 0; i--) {
            if (metrics.get(i).bottleneck() != null) {
                return i;
            }
        }
        return -1;
    }
}
