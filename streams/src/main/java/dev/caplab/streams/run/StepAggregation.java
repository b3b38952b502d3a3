package dev.caplab.streams.run;

import dev.caplab.schema.event.SampleKind;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.aggregate.Partial;
import dev.caplab.streams.aggregate.Priors;
import dev.caplab.streams.aggregate.SeriesStats;
import dev.caplab.streams.aggregate.StepStatistics;
import dev.caplab.streams.aggregate.StepThroughput;
import dev.caplab.streams.aggregate.ToolTotalsMean;
import dev.caplab.streams.contamination.ContaminationCheck;
import dev.caplab.streams.fit.LoadExpression;
import dev.caplab.streams.fit.LoadExpressionException;
import dev.caplab.streams.step.StepWindow;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-step aggregation stage: merges the partials whose second starts in a step into each series' statistics
 * (the counters' increases running from their last reading before the step), the request rate and latency
 * ({@link StepThroughput}), the contamination check and the sources' facts, and emits them as the step's rows.
 * Nothing is consumed, so a step aggregates again, identically, from the same partials.
 */
final class StepAggregation {

    private static final Logger LOG = LoggerFactory.getLogger(StepAggregation.class);

    private final PartialStore partials;
    private final TopologySettings settings;

    StepAggregation(PartialStore partials, TopologySettings settings) {
        this.partials = partials;
        this.settings = settings;
    }

    AggregatedStep of(RunState.Mutable run, StepWindow step) {
        List<Partial> inStep = partials.range(run.runId, step.startMicros(), step.endMicros());
        Priors priors = partials.priors(run.runId, step.startMicros(),
                seriesOf(inStep, p -> p.kind() == SampleKind.COUNTER),
                seriesOf(inStep, p -> ToolTotalsMean.last(p).isPresent()), StepStatistics.COUNTER_LOOKBACK_MICROS);
        List<SeriesStats> stats = new ArrayList<>(StepStatistics.of(inStep, priors.counters(), step.steadyFromMicros(),
                settings));
        stats.addAll(StepThroughput.of(inStep, priors, step.startMicros(), step.endMicros(), step.steadyFromMicros(),
                settings));
        return new AggregatedStep(stats, ContaminationCheck.check(inStep, step.steadyFromMicros(), settings),
                partials.sourceFacts(run.runId, step, inStep), x(run, step));
    }

    /** The step's rows, one per series, at {@code revision}. */
    List<DerivedEvent> rows(RunState.Mutable run, StepWindow step, AggregatedStep aggregated, long revision,
            long lateCount) {
        List<DerivedEvent> out = new ArrayList<>();
        for (SeriesStats s : aggregated.stats()) {
            out.add(AggregateRows.of(run, step.index(), step.load(), aggregated.x(), s, step.startMicros(),
                    step.endMicros(), aggregated.contaminated(), revision, lateCount));
        }
        return out;
    }

    private static Set<String> seriesOf(List<Partial> partials, Predicate<Partial> which) {
        return partials.stream().filter(which).map(Partial::seriesKey).collect(Collectors.toSet());
    }

    private static Double x(RunState.Mutable run, StepWindow step) {
        try {
            return LoadExpression.evaluate(loadExpression(run), step.load());
        } catch (LoadExpressionException e) {
            LOG.warn("run {} step {}: no x, the step is left out of fits: {}", run.runId, step.index(), e.getMessage());
            return null;
        }
    }

    /** The run's load expression: the x its steps are placed at and fitted against. */
    static String loadExpression(RunState.Mutable run) {
        return run.started == null ? "load" : run.started.getLoadExpression().toString();
    }
}
