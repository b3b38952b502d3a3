package dev.caplab.schema.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.AlertKind;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.topic.TopicCatalog;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

class EventSerdesTest {

    @Test
    void sampleBatchRoundTripsWithMicrosecondTimestamps() {
        SampleBatch batch = Events.sampleBatch();
        byte[] bytes = EventSerdes.sampleBatch().serialize(TopicCatalog.SAMPLES, batch);

        assertThat(bytes[0]).isEqualTo((byte) 0xC3);
        assertThat(bytes[1]).isEqualTo((byte) 0x01);
        assertThat(EventSerdes.sampleBatch().deserialize(TopicCatalog.SAMPLES, bytes)).isEqualTo(batch);
    }

    @Test
    void derivedAlertRoundTrips() {
        Alert alert = Alert.newBuilder().setRunId("run-1").setAt(Events.T0).setKind(AlertKind.STEP_FAILED)
                .setStepIndex(3).setMessage("p95 620 > 500").build();
        byte[] bytes = EventSerdes.alert().serialize(TopicCatalog.ALERTS, alert);
        assertThat(EventSerdes.alert().deserialize(TopicCatalog.ALERTS, bytes)).isEqualTo(alert);
    }

    @Test
    void lifecycleSerdeDecodesEachEventToItsOwnClass() {
        List<SpecificRecord> events = List.of(Events.runStarted(), Events.stepStarted(), Events.stepEnded(),
                Events.runEnded(), Events.annotation());
        LifecycleSerde serde = EventSerdes.lifecycle();
        for (SpecificRecord event : events) {
            SpecificRecord decoded = serde.deserialize(TopicCatalog.RUNS, serde.serialize(TopicCatalog.RUNS, event));
            assertThat(decoded).isEqualTo(event).hasSameClassAs(event);
        }
    }

    @Test
    void lifecycleBytesAreTheSameAsTheTypedSerdes() {
        StepStarted step = Events.stepStarted();
        byte[] typed = EventSerdes.stepStarted().serialize(TopicCatalog.RUNS, step);
        assertThat(EventSerdes.lifecycle().serialize(TopicCatalog.RUNS, step)).isEqualTo(typed);
    }

    @Test
    void lifecycleSerdeRefusesToWriteANonLifecycleRecord() {
        assertThatThrownBy(() -> EventSerdes.lifecycle().serialize(TopicCatalog.RUNS, Events.sampleBatch()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a lifecycle event");
    }

    @Test
    void lifecycleSerdeRejectsASampleBatchByFingerprint() {
        byte[] batch = EventSerdes.sampleBatch().serialize(TopicCatalog.RUNS, Events.sampleBatch());
        assertThatThrownBy(() -> EventSerdes.lifecycle().deserialize(TopicCatalog.RUNS, batch))
                .isInstanceOf(UndecodableEventException.class)
                .hasMessageContaining("SampleBatch is not a lifecycle event")
                .hasMessageContaining(TopicCatalog.RUNS);
    }

    @Test
    void bytesWithoutHeaderAreUndecodableWithContext() {
        byte[] json = "{\"runId\":\"x\"}".getBytes();
        assertThatThrownBy(() -> EventSerdes.sampleBatch().deserialize(TopicCatalog.SAMPLES, json))
                .isInstanceOfSatisfying(UndecodableEventException.class, e -> {
                    assertThat(e.topic()).isEqualTo(TopicCatalog.SAMPLES);
                    assertThat(e.byteLength()).isEqualTo(json.length);
                    assertThat(e.writerFingerprint()).isEmpty();
                    assertThat(e.describeAt(4, 1234)).endsWith("at caplab.samples-4@1234");
                });
    }

    @Test
    void unknownFingerprintIsUndecodable() {
        byte[] bytes = EventSerdes.sampleBatch().serialize(TopicCatalog.SAMPLES, Events.sampleBatch());
        bytes[5] ^= 0x55;
        assertThatThrownBy(() -> EventSerdes.sampleBatch().deserialize(TopicCatalog.SAMPLES, bytes))
                .isInstanceOfSatisfying(UndecodableEventException.class, e -> {
                    assertThat(e.reason()).isEqualTo("unknown writer schema fingerprint");
                    assertThat(e.writerFingerprint()).isPresent();
                });
    }

    @Test
    void truncatedPayloadIsUndecodableAtEveryCut() {
        byte[] bytes = EventSerdes.sampleBatch().serialize(TopicCatalog.SAMPLES, Events.sampleBatch());
        for (int cut = 0; cut < bytes.length; cut++) {
            byte[] truncated = Arrays.copyOf(bytes, cut);
            assertThatThrownBy(() -> EventSerdes.sampleBatch().deserialize(TopicCatalog.SAMPLES, truncated))
                    .as("cut at %d of %d", cut, bytes.length)
                    .isInstanceOf(UndecodableEventException.class);
        }
    }

    @Test
    void typedSerdeRejectsAnotherRecordType() {
        byte[] step = EventSerdes.stepStarted().serialize(TopicCatalog.RUNS, Events.stepStarted());
        assertThatThrownBy(() -> EventSerdes.sampleBatch().deserialize(TopicCatalog.RUNS, step))
                .isInstanceOf(UndecodableEventException.class)
                .hasMessageContaining("bytes hold a dev.caplab.schema.event.StepStarted");
    }

    @Test
    void nullIsATombstoneBothWays() {
        assertThat(EventSerdes.stepVerdict().serialize(TopicCatalog.VERDICTS, null)).isNull();
        assertThat(EventSerdes.stepVerdict().deserialize(TopicCatalog.VERDICTS, null)).isNull();
        assertThat(EventSerdes.lifecycle().deserialize(TopicCatalog.RUNS, null)).isNull();
    }
}
