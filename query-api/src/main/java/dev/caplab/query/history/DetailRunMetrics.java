package dev.caplab.query.history;

import dev.caplab.query.fits.FitView;
import dev.caplab.query.runs.RunDetail;
import dev.caplab.query.runs.RunService;
import dev.caplab.query.runs.RunSummary;
import java.util.HashMap;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * Run conclusions as the run page shows them ({@link RunService#detail}): its max stable load and bottleneck, and
 * each fit's below-knee slope and first breakpoint. Interim, until the stored run conclusion exists.
 */
@Component
class DetailRunMetrics implements RunMetricsSource {

    private final RunService runs;

    DetailRunMetrics(RunService runs) {
        this.runs = runs;
    }

    @Override
    public RunMetrics metricsOf(RunSummary run) {
        RunDetail detail = runs.detail(run.runId());
        Map<String, RunMetrics.ResourceLine> lines = new HashMap<>();
        for (FitView fit : detail.fits()) {
            // one line per resource: the fit the run names as bottleneck wins over another source's fit of it
            if (fit.bottleneck() || !lines.containsKey(fit.metric())) {
                lines.put(fit.metric(), new RunMetrics.ResourceLine(fit.slopePerX(), fit.kneeX()));
            }
        }
        return new RunMetrics(run.runId(), (detail.conclusion() == null || detail.conclusion().bottleneck() == null ? null : detail.conclusion().bottleneck().metric()), detail.maxStableX(), lines);
    }
}
