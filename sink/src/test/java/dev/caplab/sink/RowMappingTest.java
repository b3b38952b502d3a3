package dev.caplab.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.AlertKind;
import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunDeleted;
import dev.caplab.schema.event.RunEgressCeiling;
import dev.caplab.schema.event.RunLateness;
import dev.caplab.schema.event.RunThroughputLimit;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.Segment;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.serde.AvroTrust;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An event that is its own row is passed through as it is once the store's checks accept it, and one the store would
 * refuse fails naming the field (the sink dead-letters it, with an alert for that event alone); messages written out
 * here.
 */
class RowMappingTest {

    private static final Instant T1 = Instant.parse("2026-03-01T10:00:00.000001Z");
    private static final Instant T2 = Instant.parse("2026-03-01T10:05:00.000002Z");

    @BeforeAll
    static void trustTheEvents() {
        AvroTrust.install(); // as the sink's serdes do before any event is read: a builder's copy loads the enums
    }

    @Test
    void anAggregateIsItsOwnRowAndOneTheStoreRefusesFailsNamingTheField() {
        StepAggregate aggregate = StepAggregate.newBuilder().setRunId("run-a").setStepIndex(2)
                .setLoad(Map.of("users", 20.0)).setX(20.0).setSource("client").setMetric("latency")
                .setKind(SampleKind.SUMMARY).setCount(31).setWarmupCount(32).setSum(33.5).setMin(1.5).setMax(9.5)
                .setMean(4.5).setSustained(5.5).setPeak(8.5).setQuantiles(Map.of("0.5", 4.0, "0.99", 9.0))
                .setRatePerSecond(34.0).setBaselineDelta(35.0).setWindowStart(T1).setWindowEnd(T2)
                .setContaminated(true).setVersion(36).setLateCount(37).build();

        assertThat(RowMapping.aggregate(aggregate)).isSameAs(aggregate);
        // what the sink dead-letters, with an alert for this event alone
        assertThatThrownBy(() -> RowMapping.aggregate(StepAggregate.newBuilder(aggregate).setWindowEnd(T1)
                .setWindowStart(T2).build())).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("window of run-a step 2 latency ends before it starts");
    }

    @Test
    void latenessAlertAnnotationAndDeletionAreTheirOwnRows() {
        RunLateness lateness = RunLateness.newBuilder().setRunId("run-l").setLateSamples(41)
                .setBeyondLatenessSamples(42).setUpdatedAt(T1).setVersion(43).build();
        assertThat(RowMapping.lateness(lateness)).isSameAs(lateness);
        assertThatThrownBy(() -> RowMapping.lateness(RunLateness.newBuilder(lateness).setLateSamples(-1).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("lateSamples must be >= 0, was -1");
        Alert alert = Alert.newBuilder().setRunId("run-al").setAt(T2).setKind(AlertKind.CLIFF_DETECTED)
                .setStepIndex(44).setMessage("cliff at step 44").build();
        assertThat(RowMapping.alert(alert)).isSameAs(alert);
        assertThatThrownBy(() -> RowMapping.alert(Alert.newBuilder(alert).setRunId(" ").build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("runId must not be blank");
        Annotation annotation = Annotation.newBuilder().setRunId("run-an").setAt(T1).setText("deploy")
                .setLabels(Map.of("by", "ops", "env", "staging")).build();
        assertThat(RowMapping.annotation(annotation)).isSameAs(annotation);
        assertThatThrownBy(() -> RowMapping.annotation(Annotation.newBuilder(annotation)
                .setAt(Instant.parse("2300-01-01T00:00:00Z")).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("at 2300-01-01T00:00:00Z is outside");
        RunDeleted deletion = RunDeleted.newBuilder().setRunId("run-d").setDeletedAt(T2).setReason(null).build();
        assertThat(RowMapping.deletion(deletion)).isSameAs(deletion);
        assertThatThrownBy(() -> RowMapping.deletion(RunDeleted.newBuilder(deletion).setRunId("").build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("runId must not be blank");
    }

    @Test
    void aConclusionIsItsOwnRowAndOneTheStoreCannotKeepIsRefusedNamingTheField() {
        RunConclusion.Builder c = RunConclusion.newBuilder().setRunId("run-c").setStepsJudged(3).setStepsSkipped(0)
                .setMargin(0.6).setModel("caplab-run-conclusion/1").setConcludedAt(T1).setVersion(2)
                .setThroughputLimit(RunThroughputLimit.newBuilder().setKneeX(51).setPlateauRatePerSecond(530)
                        .setSlopeBeforePerX(5.4).setSlopeAfterPerX(0.55).setStepsUsed(5).setFittedAt(T1).build())
                .setEgressCeiling(RunEgressCeiling.newBuilder().setMbps(610).setSource("MEASURED").setMeasuredAt(T2)
                        .build());
        RunConclusion kept = c.build();
        assertThat(RowMapping.conclusion(kept)).isSameAs(kept);

        assertThatThrownBy(() -> RowMapping.conclusion(RunConclusion.newBuilder(kept).setMargin(0).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("margin");
        assertThatThrownBy(() -> RowMapping.conclusion(RunConclusion.newBuilder(kept)
                .setConcludedAt(Instant.parse("2400-01-01T00:00:00Z")).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("concludedAt");
        assertThatThrownBy(() -> RowMapping.conclusion(RunConclusion.newBuilder(kept)
                .setThroughputLimit(RunThroughputLimit.newBuilder(kept.getThroughputLimit())
                        .setGeneratorSaturatedAtX(58.0).build()).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("generator");
        assertThatThrownBy(() -> RowMapping.conclusion(RunConclusion.newBuilder(kept).setRunId(" ").build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("runId");
    }

    @Test
    void aFitIsItsOwnRowAndOneWithAMarginOutsideZeroToOneIsRefused() {
        CapacityFit fit = CapacityFit.newBuilder().setRunId("run-f").setSource("sfu").setMetric("cpu.cores")
                .setModel("segmented-1").setModelVersion("1").setLoadExpression("users").setStepsUsed(5)
                .setSegments(List.of(Segment.newBuilder().setFromX(10).setToX(50).setIntercept(0.2).setSlope(0.01)
                        .build())).setMargin(0.6).setFittedAt(T1).build();
        assertThat(RowMapping.fit(fit)).isSameAs(fit);
        assertThatThrownBy(() -> RowMapping.fit(CapacityFit.newBuilder(fit).setMargin(1.5).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("fit of run-f cpu.cores@sfu: margin must be in (0, 1], was 1.5");
        assertThatThrownBy(() -> RowMapping.fit(CapacityFit.newBuilder(fit).setStepsUsed(-1).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("stepsUsed must be >= 0, was -1");
    }
}
