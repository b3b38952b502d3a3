package dev.caplab.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.broker.BrokerSettings;
import dev.caplab.broker.CommittedRecords;
import dev.caplab.broker.EmbeddedKafkaBroker;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo loader against the in-process broker: every event read back with the serdes, loading idempotent. */
class DemoLoaderIT {

    @TempDir
    Path dataDir;

    @Test
    void loadsEveryRunOnceAcrossRestartsAndEveryEventReadsBack() {
        List<DemoRun> runs = DemoRuns.all();
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(BrokerSettings.loopback(dataDir, 0))) {
            DemoLoadReport first = DemoLoader.load(broker.bootstrapServers(), broker.clientSecurity(), runs.subList(0, 2));
            assertThat(first.loadedRunIds()).containsExactly(runs.get(0).runId(), runs.get(1).runId());

            DemoLoadReport rest = DemoLoader.load(broker.bootstrapServers(), broker.clientSecurity());
            assertThat(rest.alreadyPresentRunIds()).containsExactly(runs.get(0).runId(), runs.get(1).runId());
            assertThat(rest.loadedRunIds()).containsExactlyElementsOf(
                    runs.subList(2, runs.size()).stream().map(DemoRun::runId).toList());
        }
        try (EmbeddedKafkaBroker restarted = EmbeddedKafkaBroker.start(BrokerSettings.loopback(dataDir, 0))) {
            DemoLoadReport again = DemoLoader.load(restarted.bootstrapServers(), restarted.clientSecurity());
            assertThat(again.loadedRunIds()).isEmpty();
            assertThat(again.alreadyPresentRunIds()).containsExactlyElementsOf(DemoRuns.runIds());

            Map<String, List<SpecificRecord>> lifecycle = readCommitted(restarted, TopicCatalog.RUNS);
            Map<String, List<SpecificRecord>> batches = readCommitted(restarted, TopicCatalog.SAMPLES);
            assertThat(lifecycle.keySet()).containsExactlyInAnyOrderElementsOf(DemoRuns.runIds());
            for (DemoRun run : runs) {
                assertThat(lifecycle.get(run.runId())).as(run.runId()).containsExactlyElementsOf(run.lifecycle());
                assertThat(batches.get(run.runId())).as(run.runId()).containsExactlyElementsOf(run.batches());
            }
        }
    }

    /** Every committed value of a topic, decoded, grouped by key in offset order (one run = one partition). */
    private static Map<String, List<SpecificRecord>> readCommitted(EmbeddedKafkaBroker broker, String topic) {
        Map<String, List<SpecificRecord>> byKey = new LinkedHashMap<>();
        for (ConsumerRecord<String, byte[]> r : CommittedRecords.read(broker.bootstrapServers(), topic,
                Duration.ofSeconds(60))) {
            SpecificRecord value = topic.equals(TopicCatalog.SAMPLES)
                    ? EventSerdes.sampleBatch().deserialize(topic, r.value())
                    : EventSerdes.lifecycle().deserialize(topic, r.value());
            byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(value);
        }
        return byKey;
    }
}
