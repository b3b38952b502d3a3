package dev.caplab.query.runs;

import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import io.swagger.v3.oas.annotations.Operation;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequiresScope(Scope.READ)
class RunChoicesController {

    private final RunService runs;

    RunChoicesController(RunService runs) {
        this.runs = runs;
    }

    @Operation(summary = "The values the runs list filters by (systems, versions, tiers, providers, tools, statuses,"
            + " load expressions) and the cohorts a history follows, over every stored run, each with its number of"
            + " runs")
    @GetMapping("/api/v1/run-choices")
    RunChoices choices() {
        return runs.choices();
    }
}
