package dev.caplab.query.compare;

import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import dev.caplab.query.web.BadRequestParameterException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequiresScope(Scope.READ)
class CompareController {

    private final CompareService compare;

    CompareController(CompareService compare) {
        this.compare = compare;
    }

    @Operation(summary = "Measured runs side by side, grouped by provider or tier, with extrapolation warnings"
            + " (JSON, or CSV of the rows)",
            description = "Scoped to one system under test: the runs given by runId, else every run of sut, else every"
                    + " run of the system of the most recent run; acrossSystems=true compares the latest runs of every"
                    + " system. Rows are split into cohorts (one system, one load expression) and claims about"
                    + " providers or tiers are drawn only within a cohort; runs that span systems or load expressions"
                    + " are answered cohort by cohort, with a warning that says so.")
    @GetMapping("/api/v1/compare")
    Comparison compare(@Parameter(description = "runs to compare, repeatable; runs of several systems are compared per"
                               + " system; default: all runs of the system (see sut)")
                       @RequestParam(name = "runId", required = false) List<String> runIds,
                       @Parameter(description = "system under test (the run's sut name); default: the system of the"
                               + " most recent run") @RequestParam Optional<String> sut,
                       @Parameter(description = "true: the latest runs of every system, compared per system (not with"
                               + " sut)") @RequestParam(defaultValue = "false") boolean acrossSystems,
                       @Parameter(description = "provider or tier") @RequestParam(defaultValue = "tier") String groupBy,
                       @Parameter(description = "resource whose base and slope to show; default: each run's"
                               + " bottleneck") @RequestParam Optional<String> metric) {
        GroupBy by;
        try {
            by = GroupBy.valueOf(groupBy.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new BadRequestParameterException("groupBy", groupBy, "expected provider or tier");
        }
        return compare.compare(runIds == null ? List.of() : runIds, sut, acrossSystems, by, metric);
    }
}
