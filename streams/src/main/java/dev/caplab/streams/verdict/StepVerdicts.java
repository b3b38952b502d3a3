package dev.caplab.streams.verdict;

import dev.caplab.analysis.verdict.Observation;
import dev.caplab.analysis.verdict.StepObservations;
import dev.caplab.analysis.verdict.Verdicts;
import dev.caplab.schema.event.RuleOutcome;
import dev.caplab.schema.event.SloRule;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.schema.vocabulary.Statistics;
import dev.caplab.streams.aggregate.SeriesStats;
import dev.caplab.streams.contamination.Contamination;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A closed step's verdict event: its series' statistics as the observations {@link Verdicts} judges against the run's
 * SLO rules, with the run's context (load, contamination, the step's bottleneck).
 */
public final class StepVerdicts {

    private StepVerdicts() {
    }

    public static StepVerdict verdict(String runId, int stepIndex, Map<String, Double> load, Double x,
            List<SeriesStats> stats, List<SloRule> rules, Contamination contamination, String bottleneck) {
        List<RuleOutcome> outcomes = Verdicts.judge(new StepObservations(stepIndex, observations(stats)), rules);
        return StepVerdict.newBuilder().setRunId(runId).setStepIndex(stepIndex).setLoad(load).setX(x)
                .setPassed(Verdicts.passed(outcomes)).setOutcomes(outcomes)
                .setContaminated(contamination.contaminated())
                .setContaminationReason(contamination.reason().orElse(null))
                .setBottleneck(bottleneck).setVersion(1L).build();
    }

    /** Every statistic a rule may name, per series; NaN figures are not observations. */
    static List<Observation> observations(List<SeriesStats> stats) {
        List<Observation> out = new ArrayList<>();
        for (SeriesStats s : stats) {
            add(out, s, Statistics.SUSTAINED, s.sustained());
            add(out, s, Statistics.PEAK, s.peak());
            add(out, s, Statistics.MEAN, s.mean());
            add(out, s, Statistics.MIN, s.min());
            add(out, s, Statistics.MAX, s.max());
            add(out, s, Statistics.LAST, s.last());
            if (s.ratePerSecond() != null) {
                add(out, s, Statistics.RATE, s.ratePerSecond());
            }
            s.quantiles().forEach((q, v) -> add(out, s, Statistics.percentileName(q), v));
        }
        return out;
    }

    private static void add(List<Observation> out, SeriesStats s, String statistic, double value) {
        if (Double.isFinite(value)) {
            out.add(new Observation(s.metric(), statistic, s.source(), value));
        }
    }
}
