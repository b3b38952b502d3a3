package dev.caplab.streams.input;

import dev.caplab.schema.event.SampleBatch;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;

/** A decoded input record of the topology: a lifecycle event, a sample batch, or bytes that could not be decoded. */
public sealed interface InputEvent {

    /** RunStarted, StepStarted, StepEnded, RunEnded, Annotation or RunDeleted from {@code caplab.runs}. */
    record Lifecycle(SpecificRecord event) implements InputEvent {
        public Lifecycle {
            Objects.requireNonNull(event, "event");
        }
    }

    /** A batch from {@code caplab.samples}. */
    record Samples(SampleBatch batch) implements InputEvent {
        public Samples {
            Objects.requireNonNull(batch, "batch");
        }
    }

    /** Undecodable or invalid bytes, bound for the dead-letter topic with {@code reason}. */
    record Poison(byte[] bytes, String reason) implements InputEvent {
        public Poison {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
