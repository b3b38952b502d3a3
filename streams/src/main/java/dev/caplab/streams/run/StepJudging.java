package dev.caplab.streams.run;

import dev.caplab.analysis.conclusion.Conclusions;
import dev.caplab.analysis.conclusion.ResourceUse;
import dev.caplab.analysis.conclusion.StepJudgement;
import dev.caplab.analysis.conclusion.StepStatus;
import dev.caplab.schema.event.AlertKind;
import dev.caplab.schema.event.Environment;
import dev.caplab.schema.event.RunEgressCeiling;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.Micros;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.aggregate.SeriesStats;
import dev.caplab.streams.step.StepWindow;
import dev.caplab.streams.verdict.JudgingRules;
import dev.caplab.streams.verdict.StepVerdicts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The step-judging stage: an aggregated step's verdict against the run's SLO rules (its own, else the default for
 * its system; none and the step is not judged), the resource at or past its margin in that step, the judgement the
 * run conclusion reads ({@link StepMark}), and the alerts a failing or contaminated step raises.
 */
final class StepJudging {

    private final TopologySettings settings;
    private final MeasuredCeilings measured;

    StepJudging(TopologySettings settings, MeasuredCeilings measured) {
        this.settings = settings;
        this.measured = measured;
    }

    /** The step's verdict and alerts at {@code revision}; its judgement is kept in the run's marks. */
    List<DerivedEvent> judge(RunState.Mutable run, StepWindow step, AggregatedStep aggregated, long revision,
            long lateCount) {
        List<DerivedEvent> out = new ArrayList<>();
        List<SeriesStats> stats = aggregated.stats();
        Optional<ResourceUse> overMargin = Conclusions.stepBottleneck(uses(run, aggregated), settings.fitMargin());
        JudgingRules judging = JudgingRules.of(run.started, settings.defaultRules());
        StepVerdict verdict = StepVerdicts.verdict(run.runId, step.index(), step.load(), aggregated.x(), stats,
                judging.rules(), aggregated.contamination(),
                overMargin.map(u -> MetricNames.resourceName(u.metric(), u.source())).orElse(null));
        verdict.setVersion(revision);
        verdict.setLateCount(lateCount);
        verdict.setJudged(judging.judging());
        verdict.setWindowStart(Micros.toInstant(step.startMicros()));
        verdict.setWindowEnd(step.isOpen() ? null : Micros.toInstant(step.endMicros()));
        verdict.setWarmupMicros(step.warmupMicros());
        out.add(new DerivedEvent.Verdict(verdict));
        Double x = aggregated.x();
        run.marks.put(step.index(), new StepMark(step, revision, lateCount, new StepJudgement(step.index(),
                x == null ? OptionalDouble.empty() : OptionalDouble.of(x),
                StepStatus.of(false, judging.judging(), verdict.getPassed()),
                aggregated.contaminated(), overMargin, loadGeneratorCpu(stats))));
        run.concludeDue = true;
        if (aggregated.contaminated()) {
            // A contaminated step says nothing about the system, so it raises no STEP_FAILED (a stepper stops on
            // that) even when its rules failed: the run conclusion skips it too.
            out.add(RunAlerts.step(run, step, AlertKind.STEP_CONTAMINATED, "step " + step.index() + " contaminated, "
                    + "left out of fits and of the max stable load" + (verdict.getPassed() ? "" : " (its rules failed: "
                    + failedRules(verdict) + ")") + ": " + aggregated.contamination().reason().orElseThrow()));
        } else if (!verdict.getPassed()) {
            out.add(RunAlerts.step(run, step, AlertKind.STEP_FAILED, "step " + step.index() + " failed: "
                    + failedRules(verdict)));
        }
        return out;
    }

    /** Withdraws the verdict of a step that left the timeline, at {@code revision}; readers skip it. */
    static DerivedEvent withdrawn(String runId, int index, long revision) {
        return new DerivedEvent.Verdict(StepVerdict.newBuilder().setRunId(runId).setStepIndex(index).setLoad(Map.of())
                .setX(null).setPassed(false).setOutcomes(List.of()).setContaminated(false)
                .setContaminationReason(null).setBottleneck(null).setVersion(revision).setLateCount(0)
                .setWithdrawn(true).build());
    }

    /**
     * Sustained use against its ceiling of every single series of the system under test or a host (never an agent's
     * or the generator's) whose ceiling is known.
     */
    private List<ResourceUse> uses(RunState.Mutable run, AggregatedStep aggregated) {
        Environment env = run.started == null ? null : run.started.getEnvironment();
        Optional<RunEgressCeiling> egress = measured.egress(run);
        List<ResourceUse> out = new ArrayList<>();
        for (SeriesStats s : aggregated.stats()) {
            OptionalDouble c = aggregated.facts().ceiling(s.source(), s.metric(), env, egress);
            if (!s.isGroup() && !s.outsideSut() && aggregated.facts().role(s.source(), s.metric()).planned()
                    && c.isPresent() && Double.isFinite(s.sustained())) {
                out.add(new ResourceUse(s.source(), s.metric(), s.sustained(), c.getAsDouble()));
            }
        }
        return out;
    }

    /** The load generator's sustained CPU (% of its machine) in the step, when it sent it. */
    private static OptionalDouble loadGeneratorCpu(List<SeriesStats> stats) {
        return stats.stream().filter(s -> MetricNames.THROUGHPUT_SOURCE.equals(s.source())
                        && MetricNames.THROUGHPUT_LOADGEN_CPU_UTIL_PERCENT.equals(s.metric())
                        && Double.isFinite(s.sustained()))
                .mapToDouble(SeriesStats::sustained).findFirst();
    }

    private static String failedRules(StepVerdict v) {
        return String.join("; ", v.getOutcomes().stream().filter(o -> !o.getPassed())
                .map(o -> o.getRule().getName() + (o.getReason() == null ? "" : " (" + o.getReason() + ")")).toList());
    }
}
