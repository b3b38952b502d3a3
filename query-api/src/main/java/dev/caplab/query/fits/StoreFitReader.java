package dev.caplab.query.fits;

import dev.caplab.query.web.RequestReads;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.row.CapacityFitRow;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.stereotype.Component;

/** The latest fit per (run, metric, source) through the store's CapacityFitRepository; a run's read once per request. */
@Component
class StoreFitReader implements FitReader {

    private final CapacityFitRepository fits;

    StoreFitReader(DataSource dataSource) {
        this.fits = new CapacityFitRepository(dataSource);
    }

    /** An empty {@code metric} (e.g. {@code ?metric=}) does not filter. */
    @Override
    public List<FitView> fits(String runId, Optional<String> metric) {
        return RequestReads.once("fits", List.of(runId, metric), () -> fits.ofRun(runId,
                metric.filter(m -> !m.isEmpty())).stream().map(StoreFitReader::fit).toList());
    }

    @Override
    public List<FitView> fitsOfRuns(Collection<String> runIds) {
        return fits.ofRuns(runIds).stream().map(StoreFitReader::fit).toList();
    }

    private static FitView fit(CapacityFitRow f) {
        List<FitView.Segment> segments = f.segments().stream().map(s -> new FitView.Segment(s.fromX(), s.toX(),
                s.intercept(), s.slope(), s.slopeStdErr())).toList();
        List<FitView.Breakpoint> breakpoints = f.breakpoints().stream().map(b -> new FitView.Breakpoint(b.x(),
                b.stdErr(), b.lower95(), b.upper95())).toList();
        return FitView.of(f.runId(), f.source(), f.metric(), f.model(), f.modelVersion(), f.loadExpression(),
                f.stepsUsed(), segments, breakpoints, f.breakpointPValue(), f.rSquared(), f.cliff(),
                f.cliffStepIndex(), f.capacity(), f.margin(), f.safeCapacityX(), f.bottleneck(), f.fittedAt())
                .withRole(f.role());
    }
}
