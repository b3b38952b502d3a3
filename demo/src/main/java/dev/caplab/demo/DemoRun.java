package dev.caplab.demo;

import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import java.util.List;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;

/**
 * One demo run rebuilt from a field report: its id and every event in publishing order, lifecycle events
 * ({@code caplab.runs}) and sample batches ({@code caplab.samples}) interleaved by event time.
 */
public record DemoRun(String runId, List<SpecificRecord> events) {

    public DemoRun {
        Objects.requireNonNull(runId, "runId");
        if (runId.isBlank()) {
            throw new IllegalArgumentException("demo run id must not be blank");
        }
        events = List.copyOf(events);
        if (events.size() < 2 || !(events.getFirst() instanceof RunStarted first)
                || !(events.getLast() instanceof RunEnded last)) {
            throw new IllegalArgumentException("demo run " + runId + " must open with RunStarted and close with RunEnded");
        }
        if (!first.getRunId().equals(runId) || !last.getRunId().equals(runId)) {
            throw new IllegalArgumentException("demo run " + runId + " holds events of run " + first.getRunId());
        }
    }

    /** The run's opening event: system under test, environment, SLO rules, load expression. */
    public RunStarted runStarted() {
        return (RunStarted) events.getFirst();
    }

    /** Every event published to {@code caplab.runs}, in order. */
    public List<SpecificRecord> lifecycle() {
        return events.stream().filter(e -> !(e instanceof SampleBatch)).toList();
    }

    /** Every batch published to {@code caplab.samples}, in order. */
    public List<SampleBatch> batches() {
        return events.stream().filter(SampleBatch.class::isInstance).map(SampleBatch.class::cast).toList();
    }

    /** All samples of the run, flattened from its batches in publishing order. */
    public List<Sample> samples() {
        return batches().stream().flatMap(b -> b.getSamples().stream()).toList();
    }
}
