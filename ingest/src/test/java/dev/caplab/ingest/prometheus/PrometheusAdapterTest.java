package dev.caplab.ingest.prometheus;

import static dev.caplab.ingest.adapter.Fixtures.only;
import static dev.caplab.ingest.adapter.Fixtures.select;
import static dev.caplab.ingest.adapter.Fixtures.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.ingest.adapter.AdapterOptions;
import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.parse.ParseResult;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryWindow;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** node_exporter-1.5.txt is a real scrape of Debian's node_exporter on loopback; families.txt follows the format docs. */
class PrometheusAdapterTest {

    private static final Instant SCRAPED_AT = Instant.parse("2026-12-02T18:00:00Z");

    private static ParseResult parse(String resource) {
        return PrometheusAdapter.of(new AdapterOptions(Map.of("source", "node1")))
                .parse(text("prometheus/" + resource), SCRAPED_AT);
    }

    @Test
    void nodeExporterCountersStayCounters() {
        ParseResult result = parse("node_exporter-1.5.txt");

        assertThat(result.errors()).isEmpty();
        Sample idle = only(result.samples(), "node_cpu_seconds_total", Map.of("cpu", "0", "mode", "idle"));
        assertThat(idle.getKind()).isEqualTo(SampleKind.COUNTER);
        assertThat(idle.getValue()).isEqualTo(1028.26);
        assertThat(idle.getSource()).isEqualTo("node1");
        assertThat(idle.getTimestamp()).isEqualTo(SCRAPED_AT);
        assertThat(only(result.samples(), "node_memory_MemTotal_bytes", Map.of()).getValue()).isEqualTo(2.5275953152e10);
        assertThat(only(result.samples(), "node_load1", Map.of()).getKind()).isEqualTo(SampleKind.GAUGE);
        // 84 series of families typed counter in the scrape (counted with awk over its TYPE lines)
        assertThat(result.samples().stream().filter(s -> s.getKind() == SampleKind.COUNTER)).hasSize(84 + 2);
        Sample gc = only(result.samples(), "go_gc_duration_seconds", Map.of());
        assertThat(gc.getKind()).isEqualTo(SampleKind.SUMMARY);
        assertThat(gc.getSummary().getQuantiles()).containsOnlyKeys("0", "0.25", "0.5", "0.75", "1");
    }

    @Test
    void histogramsSummariesAndEscapes() {
        ParseResult result = parse("families.txt");

        assertThat(result.errors()).isEmpty();
        assertThat(select(result.samples(), "http_request_duration_seconds_bucket", Map.of()))
                .extracting(s -> s.getLabels().get("le"), Sample::getValue)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("0.05", 24054.0),
                        org.assertj.core.groups.Tuple.tuple("0.1", 33444.0),
                        org.assertj.core.groups.Tuple.tuple("0.2", 100392.0),
                        org.assertj.core.groups.Tuple.tuple("+Inf", 144320.0));
        assertThat(select(result.samples(), "http_request_duration_seconds_", Map.of())).isEmpty();
        assertThat(only(result.samples(), "http_request_duration_seconds_count", Map.of()).getKind())
                .isEqualTo(SampleKind.COUNTER);
        Sample rpc = only(result.samples(), "rpc_duration_seconds", Map.of("service", "a"));
        assertThat(rpc.getSummary().getWindow()).isEqualTo(SummaryWindow.WINDOW);
        assertThat(rpc.getSummary().getQuantiles()).containsExactly(Map.entry("0.01", 3102.0),
                Map.entry("0.5", 4773.0), Map.entry("0.99", 76656.0));
        assertThat(rpc.getValue()).isEqualTo(4773.0);
        assertThat(rpc.getLabels()).doesNotContainKey("quantile");
        // service b only had NaN: no observation, no sample
        assertThat(select(result.samples(), "rpc_duration_seconds", Map.of("service", "b"))).isEmpty();
        assertThat(only(result.samples(), "rpc_duration_seconds_sum", Map.of()).getKind()).isEqualTo(SampleKind.COUNTER);
        Sample packets = only(result.samples(), "livekit_packet_total", Map.of("kind", "video"));
        assertThat(packets.getTimestamp()).isEqualTo(Instant.ofEpochMilli(1796230800000L));
        assertThat(only(result.samples(), "msdos_file_access_time_seconds", Map.of()).getLabels())
                .containsEntry("path", "C:\\DIR\\FILE.TXT").containsEntry("error", "Cannot find file:\n\"FILE.TXT\"");
        assertThat(only(result.samples(), "container_cpu_usage_seconds_total", Map.of()).getLabels())
                .containsEntry("name", "livekit");
    }

    @Test
    void badLinesAreNamedAndTheRestKept() {
        ParseResult result = parse("malformed.txt");

        assertThat(result.errors()).extracting(ParseError::line).containsExactly(3L, 4L, 5L, 6L, 7L);
        assertThat(result.errors()).extracting(ParseError::field)
                .containsExactly("job", "value", "metric name", "instance", "TYPE");
        assertThat(result.samples()).extracting(Sample::getMetric).containsExactly("up", "go_goroutines");
    }
}
