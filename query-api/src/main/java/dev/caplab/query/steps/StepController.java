package dev.caplab.query.steps;

import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import dev.caplab.query.runs.RunReader;
import io.swagger.v3.oas.annotations.Operation;
import java.util.List;
import java.util.Optional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequiresScope(Scope.READ)
@RequestMapping("/api/v1/runs/{runId}")
class StepController {

    private final RunReader runs;
    private final StepReader steps;

    StepController(RunReader runs, StepReader steps) {
        this.runs = runs;
        this.steps = steps;
    }

    @Operation(summary = "Steps of a run with their verdicts (JSON or CSV)",
            description = "lateSamples / amended: samples that reached a step after it first closed amend it")
    @GetMapping("/steps")
    List<StepView> steps(@PathVariable String runId) {
        requireRun(runId);
        return steps.steps(runId);
    }

    @Operation(summary = "Step aggregates of a run: sustained, peak, quantiles, rate, baseline delta (JSON or CSV)")
    @GetMapping("/aggregates")
    List<StepAggregateView> aggregates(@PathVariable String runId, @RequestParam Optional<String> metric,
                                       @RequestParam Optional<String> source) {
        requireRun(runId);
        return steps.aggregates(runId, metric, source);
    }

    private void requireRun(String runId) {
        if (runs.get(runId).isEmpty()) {
            throw runs.missing(runId);
        }
    }
}
