package dev.caplab.streams.run;

import dev.caplab.analysis.conclusion.Conclusions;
import dev.caplab.analysis.conclusion.RunConclusion;
import dev.caplab.analysis.conclusion.StepJudgement;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.conclusion.ConclusionAdapter;
import dev.caplab.streams.fit.FittedThroughputLimit;
import dev.caplab.streams.fit.SourceFacts;
import dev.caplab.streams.step.StepWindow;
import dev.caplab.streams.verdict.JudgingRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The conclusion stage: the run conclusion (analysis {@link Conclusions}) from the closed steps' judgements and the
 * latest refit's estimates, with the run's warnings ({@link RunWarnings}), re-emitted at its next revision whenever
 * a step, the fits or the run closed or late data amended them.
 */
final class Concluding {

    private final PartialStore partials;
    private final TopologySettings settings;
    private final MeasuredCeilings measured;

    Concluding(PartialStore partials, TopologySettings settings, MeasuredCeilings measured) {
        this.partials = partials;
        this.settings = settings;
        this.measured = measured;
    }

    /**
     * The run conclusion at its next revision, stamped with the latest closed step's end (event time), so a replay
     * reproduces it. Empty before a step closed. The fits a refit made in this record are flagged with its
     * bottleneck here, the one place it is decided.
     */
    Optional<DerivedEvent> conclude(RunState.Mutable run, List<StepWindow> timeline) {
        run.concludeDue = false;
        int closed = Math.min(run.closedSteps, timeline.size());
        if (closed == 0 && !(run.runClosed && timeline.isEmpty())) {
            return Optional.empty(); // a run that closed without any step still concludes: its warnings say why
        }
        run.conclusionRevision++;
        RunConclusion conclusion = Conclusions.conclude(judgements(run, closed), run.estimates,
                Optional.ofNullable(run.throughputLimit).map(FittedThroughputLimit::limit), settings.fitMargin())
                .withWarnings(RunWarnings.of(run, timeline, settings));
        conclusion.bottleneck().ifPresent(b -> run.refitted.stream().filter(f -> f.getSource().toString()
                .equals(b.source()) && f.getMetric().toString().equals(b.metric())).forEach(f -> f.setBottleneck(true)));
        run.refitted.clear();
        long concludedAt = closed > 0 ? timeline.get(closed - 1).endMicros() : run.runEndedMicros;
        SourceFacts facts = closed > 0 ? partials.sourceFacts(run.runId, timeline.get(closed - 1))
                : SourceFacts.of(List.of());
        dev.caplab.schema.event.RunConclusion event = ConclusionAdapter.toEvent(run.runId, conclusion,
                run.runClosed, concludedAt, run.conclusionRevision,
                (source, metric) -> facts.role(source, metric).label(), Optional.ofNullable(run.throughputLimit));
        event.setRulesFrom(JudgingRules.of(run.started, settings.defaultRules()).origin().stored());
        event.setEgressCeiling(measured.egress(run).map(ConclusionAdapter::egressCeiling).orElse(null));
        return Optional.of(new DerivedEvent.Concluded(event));
    }

    /** The judgements of the first {@code closed} steps still on the timeline, in index order. */
    private static List<StepJudgement> judgements(RunState.Mutable run, int closed) {
        List<StepJudgement> judgements = new ArrayList<>();
        for (int i = 0; i < closed; i++) {
            StepMark mark = run.marks.get(i);
            if (mark != null && !mark.vanished() && mark.judgement() != null) {
                judgements.add(mark.judgement());
            }
        }
        return judgements;
    }
}
