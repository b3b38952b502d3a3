package dev.caplab.ingest.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.schema.event.Comparator;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.SloRule;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class LifecycleParsingTest {

    @Test
    void sloRulesParseStatisticMetricOperatorAndThreshold() {
        SloRule p95 = SloRules.parse("p95(http_req_duration) <= 500");
        assertThat(p95.getStatistic()).isEqualTo("p95");
        assertThat(p95.getMetric()).isEqualTo("http_req_duration");
        assertThat(p95.getComparator()).isEqualTo(Comparator.LE);
        assertThat(p95.getThreshold()).isEqualTo(500.0);
        assertThat(SloRules.parse("rate(http_req_failed)<0.01").getComparator()).isEqualTo(Comparator.LT);
        SloRule bare = SloRules.parse("cpu.cores>=0.5");
        assertThat(bare.getStatistic()).isEqualTo("sustained");
        assertThat(bare.getComparator()).isEqualTo(Comparator.GE);
        assertThat(SloRules.parse("sessions.dropped==0").getComparator()).isEqualTo(Comparator.EQ);
    }

    @Test
    void badSloRulesNameTheProblem() {
        assertThatThrownBy(() -> SloRules.parse("p95(latency)")).hasMessageContaining("expected statistic(metric)");
        assertThatThrownBy(() -> SloRules.parse("p95(latency<=3")).hasMessageContaining("unbalanced");
        assertThatThrownBy(() -> SloRules.parse("p95(latency)<=fast")).hasMessageContaining("not a number");
        assertThatThrownBy(() -> SloRules.parse("p42(latency)<=1")).hasMessageContaining("unknown statistic");
    }

    @Test
    void loadDimensionsParseNamedAndBareValues() {
        assertThat(LoadDimensions.parse("publishers=10, subscribers=10"))
                .containsEntry("publishers", 10.0).containsEntry("subscribers", 10.0);
        assertThat(LoadDimensions.parse("400")).containsEntry("load", 400.0);
        assertThatThrownBy(() -> LoadDimensions.parse("users=many")).hasMessageContaining("not a number");
        assertThatThrownBy(() -> LoadDimensions.parse("a=1,a=2")).hasMessageContaining("given twice");
        assertThatThrownBy(() -> LoadDimensions.parse("a=-1")).hasMessageContaining(">= 0");
    }

    @Test
    void runStartGetsAGeneratedIdAndParsedRules() {
        Clock clock = Clock.fixed(Instant.parse("2026-03-01T10:00:00Z"), ZoneOffset.UTC);
        RunStartRequest request = new RunStartRequest(null, "Live Kit", "1.8", null, "hetzner", null, "cx22", null, 2.0,
                null, null, null, "k6", null, null, List.of("p95(rtt)<=200"), null, null);

        RunStarted event = (RunStarted) new LifecycleEvents(clock).toEvent(request, null);

        assertThat(event.getRunId()).matches("live-kit-20260301-100000-[0-9a-f]{4}");
        assertThat(event.getSloRules()).singleElement().extracting(SloRule::getMetric).isEqualTo("rtt");
        assertThat(event.getLoadExpression()).isEqualTo("load");
        assertThat(event.getEnvironment().getTier()).isEqualTo("cx22");
    }

    @Test
    void stepWithoutRunIdIsRejected() {
        assertThatThrownBy(() -> new LifecycleEvents(Clock.systemUTC())
                .toEvent(new StepEndRequest(null, 1, null), null)).hasMessage("runId is required");
    }
}
