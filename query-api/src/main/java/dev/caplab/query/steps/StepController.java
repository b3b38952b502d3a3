package dev.caplab.query.steps;

import dev.caplab.query.runs.RunNotFoundException;
import dev.caplab.store.access.DeletedRunRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.access.StepAggregateRepository;
import dev.caplab.store.access.RunSteps;
import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
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

    private final RunRepository runs;
    private final DeletedRunRepository deletions;
    private final RunSteps steps;
    private final StepAggregateRepository aggregates;

    StepController(RunRepository runs, DeletedRunRepository deletions, RunSteps steps,
            StepAggregateRepository aggregates) {
        this.runs = runs;
        this.deletions = deletions;
        this.steps = steps;
        this.aggregates = aggregates;
    }

    @Operation(summary = "Steps of a run with their verdicts (JSON or CSV)",
            description = "lateSamples / amended: samples that reached a step after it first closed amend it")
    @GetMapping("/steps")
    List<StepView> steps(@PathVariable String runId) {
        RunNotFoundException.require(runId, runs, deletions);
        return StepView.of(steps.ofRun(runId));
    }

    @Operation(summary = "Step aggregates of a run: sustained, peak, quantiles, rate, baseline delta (JSON or CSV)")
    @GetMapping("/aggregates")
    List<AggregateView> aggregates(@PathVariable String runId, @RequestParam Optional<String> metric,
                                   @RequestParam Optional<String> source) {
        RunNotFoundException.require(runId, runs, deletions);
        return AggregateView.of(aggregates.ofRun(runId, metric, source));
    }
}
