package dev.caplab.store.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.AlertKind;
import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.RunLateness;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.StepVerdict;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * What the store refuses of an event before it becomes a row: each refusal is an IllegalArgumentException naming the
 * field (what the sink dead-letters), or, for a field the schema never leaves empty, a NullPointerException naming it
 * (a generated record's time setter cannot even hold a null, so times are not asked).
 */
class RowChecksTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private static final String RANGE = " is outside what ClickHouse's DateTime64 stores"
            + " (1900-01-01T00:00:00Z .. 2299-12-31T23:59:59.999999Z)";

    private static StepAggregate aggregate(Consumer<StepAggregate> change) {
        StepAggregate a = StepAggregate.newBuilder().setRunId("r-1").setStepIndex(2).setLoad(Map.of("users", 40.0))
                .setX(40.0).setSource("vm-1").setMetric("cpu.cores").setKind(SampleKind.GAUGE).setCount(60)
                .setWarmupCount(10).setSum(30.0).setMin(0.2).setMax(0.9).setMean(0.5).setSustained(0.5).setPeak(0.9)
                .setWindowStart(T0).setWindowEnd(T0.plusSeconds(60)).setContaminated(false).setVersion(1)
                .setLateCount(0).build();
        change.accept(a);
        return a;
    }

    private static RunLateness lateness(Consumer<RunLateness> change) {
        RunLateness l = RunLateness.newBuilder().setRunId("r-1").setLateSamples(4).setBeyondLatenessSamples(1)
                .setUpdatedAt(T0).setVersion(2).build();
        change.accept(l);
        return l;
    }

    private static Alert alert(Consumer<Alert> change) {
        Alert a = Alert.newBuilder().setRunId("r-1").setAt(T0).setKind(AlertKind.CLIFF_DETECTED).setStepIndex(4)
                .setMessage("cpu 45% -> 88%").build();
        change.accept(a);
        return a;
    }

    private static Annotation annotation(Consumer<Annotation> change) {
        Annotation a = Annotation.newBuilder().setRunId("r-1").setAt(T0).setText("stopped competing container")
                .setLabels(Map.of("by", "ops")).build();
        change.accept(a);
        return a;
    }

    private static StepVerdict verdict(Consumer<StepVerdict> change) {
        StepVerdict v = StepVerdict.newBuilder().setRunId("r-1").setStepIndex(3).setLoad(Map.of("users", 40.0))
                .setX(40.0).setPassed(true).setOutcomes(List.of()).setVersion(2).setWindowStart(T0)
                .setWindowEnd(T0.plusSeconds(60)).build();
        change.accept(v);
        return v;
    }

    private static void refused(Runnable check, String message) {
        assertThatThrownBy(check::run).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }

    private static void missing(Runnable check, String field) {
        assertThatThrownBy(check::run).isInstanceOf(NullPointerException.class).hasMessage(field);
    }

    @Test
    void aSoundEventIsItsOwnRow() {
        StepAggregate a = aggregate(x -> { });
        assertThat(RowChecks.aggregate(a)).isSameAs(a);
        // a window of no length is a window (an emptied one)
        StepAggregate empty = aggregate(x -> x.setWindowEnd(T0));
        assertThat(RowChecks.aggregate(empty)).isSameAs(empty);
        RunLateness l = lateness(x -> { });
        assertThat(RowChecks.lateness(l)).isSameAs(l);
        Alert runWide = alert(x -> x.setStepIndex(null));
        assertThat(RowChecks.alert(runWide)).isSameAs(runWide);
        Annotation unlabelled = annotation(x -> x.setLabels(Map.of()));
        assertThat(RowChecks.annotation(unlabelled)).isSameAs(unlabelled);
        // a withdrawn step's verdict has no load, no x and no window
        StepVerdict withdrawn = verdict(x -> {
            x.setWithdrawn(true);
            x.setLoad(Map.of());
            x.setX(null);
            x.setWindowStart(null);
            x.setWindowEnd(null);
        });
        assertThat(RowChecks.verdict(withdrawn)).isSameAs(withdrawn);
    }

    @Test
    void anAggregatesRefusalsNameTheField() {
        refused(() -> RowChecks.aggregate(aggregate(a -> a.setRunId(" "))), "runId must not be blank");
        refused(() -> RowChecks.aggregate(aggregate(a -> a.setSource(""))), "source must not be blank");
        refused(() -> RowChecks.aggregate(aggregate(a -> a.setMetric(" "))), "metric must not be blank");
        refused(() -> RowChecks.aggregate(aggregate(a -> a.setCount(-1))), "count must be >= 0, was -1");
        refused(() -> RowChecks.aggregate(aggregate(a -> a.setWarmupCount(-3))), "warmupCount must be >= 0, was -3");
        refused(() -> RowChecks.aggregate(aggregate(a -> a.setVersion(-1))), "version must be >= 0, was -1");
        refused(() -> RowChecks.aggregate(aggregate(a -> a.setLateCount(-2))), "lateCount must be >= 0, was -2");
        refused(() -> RowChecks.aggregate(aggregate(a -> a.setWindowStart(Instant.parse("1000-01-01T00:00:00Z")))),
                "windowStart 1000-01-01T00:00:00Z" + RANGE);
        refused(() -> RowChecks.aggregate(aggregate(a -> a.setWindowEnd(Instant.parse("2300-01-01T00:00:00Z")))),
                "windowEnd 2300-01-01T00:00:00Z" + RANGE);
        refused(() -> RowChecks.aggregate(aggregate(a -> a.setWindowEnd(T0.minusSeconds(1)))),
                "window of r-1 step 2 cpu.cores ends before it starts");
        missing(() -> RowChecks.aggregate(aggregate(a -> a.setRunId(null))), "runId");
        missing(() -> RowChecks.aggregate(aggregate(a -> a.setLoad(null))), "load");
        missing(() -> RowChecks.aggregate(aggregate(a -> a.setKind(null))), "kind");
    }

    @Test
    void latenessRefusalsNameTheField() {
        refused(() -> RowChecks.lateness(lateness(l -> l.setRunId(""))), "runId must not be blank");
        refused(() -> RowChecks.lateness(lateness(l -> l.setLateSamples(-1))), "lateSamples must be >= 0, was -1");
        refused(() -> RowChecks.lateness(lateness(l -> l.setBeyondLatenessSamples(-5))),
                "beyondLatenessSamples must be >= 0, was -5");
        refused(() -> RowChecks.lateness(lateness(l -> l.setVersion(-1))), "version must be >= 0, was -1");
        refused(() -> RowChecks.lateness(lateness(l -> l.setUpdatedAt(Instant.parse("2400-06-01T00:00:00Z")))),
                "updatedAt 2400-06-01T00:00:00Z" + RANGE);
    }

    @Test
    void anAlertsRefusalsNameTheField() {
        refused(() -> RowChecks.alert(alert(a -> a.setRunId(" "))), "runId must not be blank");
        refused(() -> RowChecks.alert(alert(a -> a.setAt(Instant.parse("1899-12-31T23:59:59Z")))),
                "at 1899-12-31T23:59:59Z" + RANGE);
        missing(() -> RowChecks.alert(alert(a -> a.setKind(null))), "kind");
        missing(() -> RowChecks.alert(alert(a -> a.setMessage(null))), "message");
    }

    @Test
    void anAnnotationsRefusalsNameTheField() {
        refused(() -> RowChecks.annotation(annotation(a -> a.setRunId(""))), "runId must not be blank");
        refused(() -> RowChecks.annotation(annotation(a -> a.setAt(Instant.parse("2300-01-01T00:00:00Z")))),
                "at 2300-01-01T00:00:00Z" + RANGE);
        missing(() -> RowChecks.annotation(annotation(a -> a.setText(null))), "text");
        missing(() -> RowChecks.annotation(annotation(a -> a.setLabels(null))), "labels");
    }

    @Test
    void aVerdictsRefusalsNameTheField() {
        refused(() -> RowChecks.verdict(verdict(v -> v.setRunId(" "))), "runId must not be blank");
        refused(() -> RowChecks.verdict(verdict(v -> v.setVersion(-1))), "version must be >= 0, was -1");
        refused(() -> RowChecks.verdict(verdict(v -> v.setLateCount(-4))), "lateCount must be >= 0, was -4");
        refused(() -> RowChecks.verdict(verdict(v -> v.setWindowStart(Instant.parse("1850-01-01T00:00:00Z")))),
                "windowStart 1850-01-01T00:00:00Z" + RANGE);
        refused(() -> RowChecks.verdict(verdict(v -> v.setWindowEnd(Instant.parse("2300-01-01T00:00:00Z")))),
                "windowEnd 2300-01-01T00:00:00Z" + RANGE);
        missing(() -> RowChecks.verdict(verdict(v -> v.setRunId(null))), "runId");
        missing(() -> RowChecks.verdict(verdict(v -> v.setLoad(null))), "load");
        missing(() -> RowChecks.verdict(verdict(v -> v.setOutcomes(null))), "outcomes");
    }
}
