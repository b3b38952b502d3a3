package dev.caplab.query.plan;

import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import io.swagger.v3.oas.annotations.Operation;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequiresScope(Scope.READ)
class PlanController {

    private final PlanService plans;

    PlanController(PlanService plans) {
        this.plans = plans;
    }

    @Operation(summary = "Place a workload profile on measured tiers: resources needed, headroom,"
            + " fitting/tight/unreachable (JSON, or CSV of the tiers)")
    @PostMapping("/api/v1/plans")
    Plan plan(@RequestBody PlanRequest request) {
        return plans.plan(request);
    }
}
