package dev.caplab.query.fits;

import dev.caplab.query.runs.RunNotFoundException;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.DeletedRunRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import io.swagger.v3.oas.annotations.Operation;
import java.util.List;
import java.util.Optional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequiresScope(Scope.READ)
class FitController {

    private final RunRepository runs;
    private final DeletedRunRepository deletions;
    private final CapacityFitRepository fits;

    FitController(RunRepository runs, DeletedRunRepository deletions, CapacityFitRepository fits) {
        this.runs = runs;
        this.deletions = deletions;
        this.fits = fits;
    }

    @Operation(summary = "Capacity fits of a run: coefficients, breakpoints with intervals, cliff, safe capacity")
    @GetMapping("/api/v1/runs/{runId}/fits")
    List<FitView> fits(@PathVariable String runId, @RequestParam Optional<String> metric) {
        RunNotFoundException.require(runId, runs, deletions);
        // an empty metric (?metric=) does not filter
        return FitView.of(fits.ofRun(runId, metric.filter(m -> !m.isEmpty())));
    }
}
