package dev.caplab.streams.run;

import dev.caplab.streams.aggregate.SeriesStats;
import dev.caplab.streams.contamination.Contamination;
import dev.caplab.streams.fit.SourceFacts;
import java.util.List;

/**
 * One step as {@link StepAggregation} computed it from its partials: each series' statistics (the request-rate
 * series included), whether the step is contaminated, its sources' roles and ceilings, and its x (the load
 * expression over the step's load; null when it cannot be evaluated, and the step is then left out of fits).
 */
record AggregatedStep(List<SeriesStats> stats, Contamination contamination, SourceFacts facts, Double x) {

    AggregatedStep {
        stats = List.copyOf(stats);
    }

    boolean contaminated() {
        return contamination.contaminated();
    }
}
