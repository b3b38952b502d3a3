package dev.caplab.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.ingest.http.EventsRequest;
import dev.caplab.ingest.http.IngestProperties;
import dev.caplab.ingest.http.SampleRequest;
import dev.caplab.ingest.lifecycle.LifecycleEvents;
import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.schema.event.Sample;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Each demo run as the JSON body of {@code POST /api/v1/events}, read back with ingest's own request types: the
 * lifecycle events come out equal to the run's, every sample with its fields, and one run fits one request.
 */
class EventsBodyTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** A clock far from every demo time, so a time the body failed to carry would show. */
    private final LifecycleEvents lifecycle = new LifecycleEvents(
            Clock.fixed(Instant.parse("2031-01-01T00:00:00Z"), ZoneOffset.UTC));

    @Test
    void lifecycleEventsReadBackEqualToTheRunsIncludingSloRules() {
        for (DemoRun run : TestRuns.ALL) {
            EventsRequest request = readBack(run);
            List<SpecificRecord> events = request.events().stream()
                    .map(e -> lifecycle.toEvent(e, request.runId())).toList();
            assertThat(events).as(run.runId()).containsExactlyElementsOf(run.lifecycle());
            assertThat(request.adapter()).isEqualTo(EventsBody.ADAPTER);
        }
    }

    @Test
    void everySampleKeepsTimeSourceMetricKindValueLabelsAndSummary() {
        for (DemoRun run : TestRuns.ALL) {
            List<SampleRequest> sent = readBack(run).samples();
            List<Sample> built = run.samples();
            assertThat(sent).as(run.runId()).hasSameSizeAs(built);
            for (int i = 0; i < built.size(); i++) {
                Sample b = built.get(i);
                SampleRequest s = sent.get(i);
                assertThat(s.runId()).isNull();
                assertThat(s.timestamp()).as("%s sample %d", run.runId(), i).isEqualTo(b.getTimestamp());
                assertThat(List.of(s.source(), s.metric(), s.kind(), s.value(), s.labels()))
                        .as("%s sample %d", run.runId(), i)
                        .containsExactly(b.getSource(), b.getMetric(), b.getKind(), b.getValue(), b.getLabels());
                if (b.getSummary() == null) {
                    assertThat(s.summary()).isNull();
                } else {
                    assertThat(List.of(s.summary().window(), s.summary().count(), s.summary().quantiles()))
                            .containsExactly(b.getSummary().getWindow(), b.getSummary().getCount(),
                                    b.getSummary().getQuantiles());
                    assertThat(new Double[] {s.summary().mean(), s.summary().min(), s.summary().max()})
                            .containsExactly(b.getSummary().getMean(), b.getSummary().getMin(), b.getSummary().getMax());
                    assertThat(s.summary().windowMicros()).isEqualTo(b.getSummary().getWindowMicros());
                }
            }
        }
    }

    @Test
    void theLocustRunCarriesItsPercentilesAsSummaries() {
        DemoRun locust = TestRuns.ALL.stream().filter(r -> r.runId().equals(DemoRuns.LOCUST_BACKEND)).findFirst()
                .orElseThrow();
        // the totals' median on every summary; Locust's window percentiles and its final table up to p100
        assertThat(readBack(locust).samples()).filteredOn(s -> s.summary() != null)
                .isNotEmpty().allSatisfy(s -> assertThat(s.summary().quantiles()).containsKey("0.5"))
                .filteredOn(s -> s.summary().quantiles().size() > 1)
                .hasSizeGreaterThan(100).allSatisfy(s -> assertThat(s.summary().quantiles()).containsKey("0.99"));
    }

    @Test
    void everyRunFitsOneRequestSoItIsCommittedInOneTransaction() {
        for (DemoRun run : TestRuns.ALL) {
            byte[] body = JSON.writeValueAsBytes(EventsBody.of(run));
            assertThat(run.samples().size()).as(run.runId())
                    .isLessThanOrEqualTo(IngestLimits.DEFAULTS.maxSamplesPerRequest());
            assertThat((long) body.length).as(run.runId()).isLessThan(IngestProperties.DEFAULT_MAX_BODY_BYTES);
        }
    }

    private static EventsRequest readBack(DemoRun run) {
        return JSON.readValue(JSON.writeValueAsBytes(EventsBody.of(run)), EventsRequest.class);
    }
}
