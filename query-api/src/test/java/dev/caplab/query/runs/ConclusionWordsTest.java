package dev.caplab.query.runs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunEgressCeiling;
import dev.caplab.schema.serde.AvroTrust;
import java.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What the API says in words beside a stored conclusion and egress ceiling, each sentence written out here. */
class ConclusionWordsTest {

    @BeforeAll
    static void trustTheEvents() {
        AvroTrust.install(); // a conclusion's list defaults are event classes Avro checks by name
    }

    private static ConclusionView judged(String rulesFrom) {
        return new ConclusionView(RunConclusion.newBuilder().setRunId("r").setStepsJudged(0).setStepsSkipped(3)
                .setMargin(0.6).setModel("m").setConcludedAt(Instant.parse("2026-12-07T10:00:00Z"))
                .setRulesFrom(rulesFrom).build());
    }

    @Test
    void theNoteSaysWhyNoRulesOrTheDefaultOnesJudgedAndNothingWhenTheRunBroughtItsOwn() {
        assertThat(judged("none").stableLoadNote()).isEqualTo("not judged: the run has no SLO rules (give them with"
                + " caplab run start --slo, or caplab up --default-slo), so it has no max stable load");
        assertThat(judged("default").stableLoadNote()).isEqualTo("judged against the default SLO rules (caplab up"
                + " --default-slo): the run brought none");
        assertThat(judged("run").stableLoadNote()).isNull();
        assertThat(judged(null).stableLoadNote()).isNull();
    }

    private static String words(String source, Instant measuredAt) {
        return EgressCeilingView.of(RunEgressCeiling.newBuilder().setMbps(80).setSource(source)
                .setMeasuredAt(measuredAt).build()).text();
    }

    @Test
    void eachCeilingSourceReadsAsWordsAndAnIperf3MeasurementNamesItsTime() {
        assertThat(words("MEASURED", Instant.parse("2026-12-03T19:41:29Z")))
                .isEqualTo("measured by iperf3 at 2026-12-03T19:41:29Z");
        assertThat(words("DECLARED_MEASURED", null)).isEqualTo("declared as measured");
        assertThat(words("DECLARED_NOMINAL", null)).isEqualTo("declared nominal");
        assertThat(words("MEASURED_BY_SPEEDTEST", null)).isEqualTo("measured by speedtest");
    }
}
