package dev.caplab.query.history;

import dev.caplab.schema.event.CapacityFit;
import dev.caplab.query.fits.FitView;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.RunConclusionRepository;
import dev.caplab.store.row.RunRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * A cohort's stored run conclusions (max stable load, bottleneck, throughput limit) and fits (each resource's below-knee slope and
 * first breakpoint), read for all its runs at once: two store reads whatever the cohort's size.
 */
@Component
class StoredRunMetrics {

    private final RunConclusionRepository conclusions;
    private final CapacityFitRepository fits;

    StoredRunMetrics(RunConclusionRepository conclusions, CapacityFitRepository fits) {
        this.conclusions = conclusions;
        this.fits = fits;
    }

    /** One {@link RunMetrics} per run, in the order of {@code runs}. */
    List<RunMetrics> metricsOf(List<RunRow> runs) {
        List<String> ids = runs.stream().map(RunRow::runId).toList();
        Map<String, RunConclusion> concluded = conclusions.latestOf(ids);
        Map<String, Map<String, RunMetrics.ResourceLine>> lines = new HashMap<>();
        // by run, then metric and source: one line per resource, the fit the run names as bottleneck wins over
        // another source's fit of it, else the first source
        for (FitView fit : FitView.of(fits.ofRuns(ids))) {
            CapacityFit f = fit.fit();
            Map<String, RunMetrics.ResourceLine> ofRun = lines.computeIfAbsent(f.getRunId(), k -> new HashMap<>());
            if (f.getBottleneck() || !ofRun.containsKey(f.getMetric())) {
                ofRun.put(f.getMetric(), new RunMetrics.ResourceLine(fit.slopePerX(), fit.kneeX()));
            }
        }
        List<RunMetrics> out = new ArrayList<>(runs.size());
        for (String id : ids) {
            RunConclusion c = concluded.get(id);
            out.add(new RunMetrics(id, c == null || c.getBottleneck() == null ? null : c.getBottleneck().getMetric(),
                    c == null ? null : c.getMaxStableX(),
                    c == null || c.getThroughputLimit() == null ? null : c.getThroughputLimit().getKneeX(),
                    lines.getOrDefault(id, Map.of())));
        }
        return out;
    }
}
