package dev.caplab.query.history;

import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import java.util.Optional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequiresScope(Scope.READ)
class HistoryController {

    private final HistoryService history;

    HistoryController(HistoryService history) {
        this.history = history;
    }

    @Operation(summary = "How a system's slope, knee and max stable load moved across runs, with change points"
            + " (JSON, or CSV of one line per series and run)",
            description = "Follows one cohort: runs of one system under test, tier, tool and load expression, oldest"
                    + " first (the newest " + HistoryCohort.MAX_RUNS + " at most). Parameters left out must have one"
                    + " value across the matching runs; otherwise, or when no run matches, the answer is 400 naming"
                    + " the parameter to pass. Each series is the runs' values against start time and version;"
                    + " changes are found by E-divisive with a Student t-test (Apache Otava's method, p < 0.001),"
                    + " deterministic, and mark the first run of the new regime.")
    @GetMapping("/api/v1/history")
    History history(@Parameter(description = "system under test (the run's sut name)") @RequestParam
                    Optional<String> sut,
                    @Parameter(description = "tier, e.g. 2vcpu-4gb") @RequestParam Optional<String> tier,
                    @Parameter(description = "load tool, e.g. k6") @RequestParam Optional<String> tool,
                    @Parameter(description = "the runs' load expression (their fits' x), e.g. users")
                    @RequestParam Optional<String> loadExpression,
                    @Parameter(description = "resource whose below-knee slope and knee to follow; default: the"
                            + " bottleneck of the most recent run that names one") @RequestParam
                    Optional<String> metric) {
        return history.history(sut, tier, tool, loadExpression, metric);
    }
}
