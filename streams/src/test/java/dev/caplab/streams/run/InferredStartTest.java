package dev.caplab.streams.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.serde.AvroTrust;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The label {@code sut} names the system, except when it is a {@code true/false} membership mark of a source. */
class InferredStartTest {

    /** As every serde does before a record is built: alone in a JVM, the builder's enum default is refused. */
    @BeforeAll
    static void trustCaplabsEvents() {
        AvroTrust.install();
    }

    private static Sample sample(int second, Map<String, String> labels) {
        return Sample.newBuilder().setTimestamp(Instant.ofEpochSecond(1_700_000_000L + second)).setSource("host-a")
                .setMetric("cpu.cores").setKind(SampleKind.GAUGE).setValue(1.0)
                .setLabels(Map.copyOf(labels)).build();
    }

    @Test
    void aHostSamplersMembershipMarkIsNotTakenForTheSystemsName() {
        var started = InferredStart.merge(null, "r1", "line-protocol",
                List.of(sample(0, Map.of("sut", "false")), sample(1, Map.of("sut", "true")),
                        sample(2, Map.of("sut", "checkout", "provider", "hetzner"))));

        assertThat(started.getSut().getName().toString()).isEqualTo("checkout");
        assertThat(started.getEnvironment().getProvider().toString()).isEqualTo("hetzner");
    }

    @Test
    void withOnlyMembershipMarksTheSystemStaysUnknown() {
        var started = InferredStart.merge(null, "r1", "line-protocol", List.of(sample(0, Map.of("sut", "FALSE"))));

        assertThat(started.getSut().getName().toString()).isEqualTo(InferredStart.UNKNOWN);
    }
}
