package dev.caplab.ingest.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.sample.Samples;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one point samples become Kafka records: raw samples first and untouched, the recipes' series after them. */
class SampleBatchesTest {

    private static final Instant AT = Instant.parse("2026-12-02T18:00:00Z");

    @Test
    void rawSamplesStayAsTheyCameAndDerivedOnesFollowThem() {
        Sample idle = Samples.counter(AT, "node:9100", "node_cpu_seconds_total", 900, Map.of("cpu", "0", "mode", "idle"));
        Sample user = Samples.counter(AT, "node:9100", "node_cpu_seconds_total", 50, Map.of("cpu", "0", "mode", "user"));
        Sample own = Samples.gauge(AT, "sut", "cpu.cores", 1.5, Map.of());

        List<SampleBatch> batches = SampleBatches.of("run-1", "prometheus", AT, List.of(idle, user, own),
                SampleBatches.EXPORTER_RECIPES, 2, Long.MAX_VALUE);

        List<Sample> all = batches.stream().flatMap(b -> b.getSamples().stream()).toList();
        assertThat(batches).hasSize(2).allSatisfy(b -> assertThat(b.getRunId()).isEqualTo("run-1"));
        assertThat(all.subList(0, 3)).containsExactly(idle, user, own);
        assertThat(all).hasSize(4);
        assertThat(all.get(3).getMetric()).isEqualTo("cpu.cores");
        assertThat(all.get(3).getValue()).isEqualTo(50.0);
        assertThat(all.get(3).getLabels()).containsEntry("recipe", "node_exporter").containsEntry("mode", "user");
    }
}
