package dev.caplab.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.serde.AvroTrust;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The labels {@code caplab sample} and {@code caplab ingest} put on every sample, as a user types them. */
class RunMetadataOptionsTest {

    @Test
    void theLoadGeneratorsSamplerIsMarkedWithAnyLabelBesideTheNamedOnes() {
        SampleCommand sample = new SampleCommand();
        new CommandLine(sample).parseArgs("--run", "r1", "--label", "role=loadgen", "--label", "rack=b2",
                "--sut", "shop");

        assertThat(sample.metadata.labels()).containsExactlyInAnyOrderEntriesOf(
                Map.of("role", "loadgen", "rack", "b2", "sut", "shop"));
    }

    @Test
    void aSamplesOwnLabelWinsOverTheCommandLines() {
        AvroTrust.install(); // as the publisher's serdes do before any sample is built in the CLI
        Sample own = Sample.newBuilder().setTimestamp(Instant.parse("2026-12-01T10:00:00Z")).setSource("gen-1")
                .setMetric("cpu.util.percent").setKind(SampleKind.GAUGE).setValue(40)
                .setLabels(Map.of("role", "sut")).build();

        List<Sample> out = RunMetadataOptions.labelled(List.of(own), Map.of("role", "loadgen", "rack", "b2"));

        assertThat(out.getFirst().getLabels()).containsExactlyInAnyOrderEntriesOf(Map.of("role", "sut", "rack", "b2"));
    }
}
