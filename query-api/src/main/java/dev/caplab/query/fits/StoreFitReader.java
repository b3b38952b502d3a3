package dev.caplab.query.fits;

import static dev.caplab.query.store.Columns.json;

import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.row.CapacityFitRow;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.stereotype.Component;
import tools.jackson.core.type.TypeReference;

/** The latest fit per (run, metric, source) through the store's CapacityFitRepository. */
@Component
class StoreFitReader implements FitReader {

    private static final TypeReference<List<FitView.Segment>> SEGMENTS = new TypeReference<>() { };
    private static final TypeReference<List<FitView.Breakpoint>> BREAKPOINTS = new TypeReference<>() { };

    private final CapacityFitRepository fits;

    StoreFitReader(DataSource dataSource) {
        this.fits = new CapacityFitRepository(dataSource);
    }

    @Override
    public List<FitView> fits(String runId, Optional<String> metric) {
        return fits.ofRun(runId, metric).stream().map(StoreFitReader::fit).toList();
    }

    private static FitView fit(CapacityFitRow f) {
        List<FitView.Segment> segments = json(f.segmentsJson(), SEGMENTS, "segments_json");
        List<FitView.Breakpoint> breakpoints = json(f.breakpointsJson(), BREAKPOINTS, "breakpoints_json");
        return FitView.of(f.runId(), f.source(), f.metric(), f.model(), f.modelVersion(), f.loadExpression(),
                f.stepsUsed(), segments == null ? List.of() : segments, breakpoints == null ? List.of() : breakpoints,
                f.breakpointPValue(), f.rSquared(), f.cliff(), f.cliffStepIndex(), f.capacity(), f.margin(),
                f.safeCapacityX(), f.bottleneck(), f.fittedAt());
    }
}
