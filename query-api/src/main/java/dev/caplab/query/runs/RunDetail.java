package dev.caplab.query.runs;

import dev.caplab.query.fits.FitView;
import dev.caplab.query.steps.StepView;
import java.util.List;

/**
 * A run with its environment, steps and verdicts, fits, the max stable load (x of the last passing step before the
 * first failing one) and the bottleneck: the resource whose fit says it binds first, else the failing step's.
 */
public record RunDetail(RunSummary run, Double maxStableX, Integer maxStableStepIndex, Double failedX,
                        Integer failedStepIndex, String bottleneck, List<StepView> steps, List<FitView> fits) {

    public RunDetail {
        steps = List.copyOf(steps);
        fits = List.copyOf(fits);
    }
}
