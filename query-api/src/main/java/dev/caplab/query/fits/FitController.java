package dev.caplab.query.fits;

import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import dev.caplab.query.runs.RunReader;
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

    private final RunReader runs;
    private final FitReader fits;

    FitController(RunReader runs, FitReader fits) {
        this.runs = runs;
        this.fits = fits;
    }

    @Operation(summary = "Capacity fits of a run: coefficients, breakpoints with intervals, cliff, safe capacity")
    @GetMapping("/api/v1/runs/{runId}/fits")
    List<FitView> fits(@PathVariable String runId, @RequestParam Optional<String> metric) {
        if (runs.get(runId).isEmpty()) {
            throw runs.missing(runId);
        }
        return fits.fits(runId, metric);
    }
}
