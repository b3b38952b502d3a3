package dev.caplab.streams.run;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunLateness;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.StepVerdict;

/** An output of the run processor, routed by type to its topic. */
public sealed interface DerivedEvent {

    record Aggregate(StepAggregate value) implements DerivedEvent {
    }

    record Verdict(StepVerdict value) implements DerivedEvent {
    }

    record Fit(CapacityFit value) implements DerivedEvent {
    }

    /** A run's late and beyond-lateness sample counts, re-emitted when they change. */
    record Lateness(RunLateness value) implements DerivedEvent {
    }

    /** The run conclusion, re-emitted whenever a step, the fits or the run close or late data amends them. */
    record Concluded(RunConclusion value) implements DerivedEvent {
    }

    record Raised(Alert value) implements DerivedEvent {
    }

    /**
     * A lifecycle event the streams app states itself ({@link InferredRuns}: an inferred RunStarted, an idle
     * RunEnded), bound for the lifecycle topic.
     */
    record Lifecycle(org.apache.avro.specific.SpecificRecord value) implements DerivedEvent {
    }

    /** An input record left out, bound for the dead-letter topic (the reason travels in its headers). */
    record Rejected(byte[] bytes) implements DerivedEvent {
    }
}
