package dev.caplab.streams.run;

import dev.caplab.analysis.conclusion.Conclusions;
import dev.caplab.analysis.conclusion.StepJudgement;
import dev.caplab.schema.event.RunBottleneck;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.streams.Micros;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.fit.SourceFacts;
import dev.caplab.streams.step.StepWindow;
import dev.caplab.streams.verdict.JudgingRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The conclusion stage: the run conclusion (analysis {@link Conclusions}) from the closed steps' judgements and the
 * latest refit's estimates, with the run's warnings ({@link RunWarnings}), re-emitted at its next revision whenever
 * a step, the fits or the run closed or late data amended them. Analysis decides it; this stage adds what only the
 * topology knows: the run, its state and revision, the time, the sources' roles, where the rules came from and the
 * egress ceiling.
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
        RunConclusion.Builder conclusion = Conclusions.conclude(judgements(run, closed), run.estimates,
                Optional.ofNullable(run.throughputLimit), settings.fitMargin());
        RunBottleneck bottleneck = conclusion.getBottleneck();
        if (bottleneck != null) {
            run.refitted.stream().filter(f -> f.getSource().equals(bottleneck.getSource())
                    && f.getMetric().equals(bottleneck.getMetric())).forEach(f -> f.setBottleneck(true));
        }
        run.refitted.clear();
        long concludedAt = closed > 0 ? timeline.get(closed - 1).endMicros() : run.runEndedMicros;
        SourceFacts facts = closed > 0 ? partials.sourceFacts(run.runId, timeline.get(closed - 1))
                : SourceFacts.of(List.of());
        conclusion.getResources().forEach(e -> e.setRole(facts.role(e.getSource(), e.getMetric()).label()));
        if (bottleneck != null) {
            bottleneck.setRole(facts.role(bottleneck.getSource(), bottleneck.getMetric()).label());
        }
        return Optional.of(new DerivedEvent.Concluded(conclusion
                .setRunId(run.runId)
                .setRunClosed(run.runClosed)
                .setConcludedAt(Micros.toInstant(concludedAt))
                .setVersion(run.conclusionRevision)
                .setWarnings(RunWarnings.of(run, timeline, settings))
                .setRulesFrom(JudgingRules.of(run.started, settings.defaultRules()).origin().stored())
                .setEgressCeiling(measured.egress(run).orElse(null))
                .build()));
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
