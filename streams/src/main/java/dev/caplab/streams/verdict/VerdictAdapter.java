package dev.caplab.streams.verdict;

import dev.caplab.schema.vocabulary.Statistics;
import dev.caplab.analysis.verdict.Observation;
import dev.caplab.analysis.verdict.SloComparator;
import dev.caplab.analysis.verdict.StepObservations;
import dev.caplab.analysis.verdict.Verdicts;
import dev.caplab.schema.event.RuleOutcome;
import dev.caplab.schema.event.SloRule;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.streams.aggregate.SeriesStats;
import dev.caplab.streams.contamination.Contamination;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Judges a closed step against the run's SLO rules through the analysis library's {@link Verdicts}. */
public final class VerdictAdapter {

    private VerdictAdapter() {
    }

    public static StepVerdict verdict(String runId, int stepIndex, Map<String, Double> load, Double x,
            List<SeriesStats> stats, List<SloRule> rules, Contamination contamination, String bottleneck) {
        List<Observation> observations = observations(stats);
        List<dev.caplab.analysis.verdict.SloRule> analysisRules = rules.stream().map(VerdictAdapter::toAnalysis)
                .toList();
        var judged = Verdicts.evaluate(new StepObservations(stepIndex, x == null ? Double.NaN : x, observations),
                analysisRules);
        List<RuleOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            var o = judged.outcomes().get(i);
            outcomes.add(RuleOutcome.newBuilder().setRule(rules.get(i))
                    .setObserved(o.observed().isPresent() ? o.observed().getAsDouble() : null)
                    .setPassed(o.passed()).setReason(o.reason().isEmpty() ? null : o.reason()).build());
        }
        return StepVerdict.newBuilder().setRunId(runId).setStepIndex(stepIndex).setLoad(load).setX(x)
                .setPassed(judged.passed()).setOutcomes(outcomes)
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

    private static dev.caplab.analysis.verdict.SloRule toAnalysis(SloRule r) {
        return new dev.caplab.analysis.verdict.SloRule(r.getName().toString(), r.getMetric().toString(),
                r.getStatistic().toString(), SloComparator.valueOf(r.getComparator().name()), r.getThreshold(),
                Optional.ofNullable(r.getSource()).map(CharSequence::toString));
    }
}
