package dev.caplab.ingest.docker;

import static dev.caplab.ingest.adapter.Fixtures.only;
import static dev.caplab.ingest.adapter.Fixtures.select;
import static dev.caplab.ingest.adapter.Fixtures.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.ingest.adapter.AdapterOptions;
import dev.caplab.ingest.adapter.BadOptionException;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.parse.ParseResult;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** docker stats lines written from docker's documented {{json .}} fields (no docker engine runs here). */
class DockerStatsAdapterTest {

    private static final Instant READ_AT = Instant.parse("2026-12-02T18:00:00Z");
    private static final AdapterOptions GROUPED = new AdapterOptions(Map.of("group.bedrud", "livekit,bedrud"));

    private static ParseResult parse(String resource, AdapterOptions options) {
        return DockerStatsAdapter.of(options).parse(text("docker/" + resource), READ_AT);
    }

    @Test
    void cpuPercentIsOfOneCore() {
        ParseResult result = parse("no-stream-loop.jsonl", GROUPED);

        assertThat(result.errors()).isEmpty();
        List<Sample> cores = select(result.samples(), MetricNames.CPU_CORES, Map.of("container", "livekit"));
        assertThat(cores).extracting(Sample::getValue).containsExactly(0.0042, 1.8755);
        assertThat(cores).extracting(Sample::getTimestamp).containsExactly(
                Instant.parse("2026-12-02T17:00:00Z"), Instant.parse("2026-12-02T17:00:02Z"));
        assertThat(cores.getFirst().getSource()).isEqualTo("livekit");
        assertThat(cores.getFirst().getLabels()).containsEntry("group", "bedrud")
                .containsEntry("container.id", "3f2a9c1b7d4e");
        assertThat(select(result.samples(), MetricNames.CPU_PERCENT, Map.of("container", "bedrud")))
                .extracting(Sample::getValue).containsExactly(3.10, 12.04);
    }

    @Test
    void memoryIsBinaryAndIoIsDecimalAndCumulative() {
        ParseResult result = parse("no-stream-loop.jsonl", AdapterOptions.NONE);
        Instant first = Instant.parse("2026-12-02T17:00:00Z");

        Sample mem = select(result.samples(), MetricNames.MEM_BYTES, Map.of("container", "livekit")).getFirst();
        assertThat(mem.getValue()).isEqualTo(145.0 * 1024 * 1024);
        assertThat(select(result.samples(), MetricNames.MEM_LIMIT_BYTES, Map.of("container", "livekit")).getFirst()
                .getValue()).isCloseTo(7.75 * 1024 * 1024 * 1024, within(1.0));
        List<Sample> tx = select(result.samples(), MetricNames.NET_TX_BYTES, Map.of("container", "livekit"));
        assertThat(tx).extracting(Sample::getValue).containsExactly(648e3, 1.31e9);
        assertThat(tx).allMatch(s -> s.getKind() == SampleKind.COUNTER);
        assertThat(select(result.samples(), MetricNames.BLOCK_WRITE_BYTES, Map.of("container", "bedrud")).getFirst()
                .getValue()).isEqualTo(4.1e3);
        assertThat(select(result.samples(), MetricNames.PIDS_COUNT, Map.of("container", "livekit")))
                .extracting(Sample::getTimestamp, Sample::getValue).containsExactly(
                        org.assertj.core.groups.Tuple.tuple(first, 14.0),
                        org.assertj.core.groups.Tuple.tuple(Instant.parse("2026-12-02T17:00:02Z"), 15.0));
    }

    @Test
    void missingReadingsGiveNoSampleButNoError() {
        ParseResult result = parse("no-stream-loop.jsonl", AdapterOptions.NONE);

        assertThat(select(result.samples(), "", Map.of("container", "migrate"))).isEmpty();
        assertThat(result.samples().stream().filter(s -> s.getSource().equals("migrate")))
                .extracting(Sample::getMetric).containsExactly(MetricNames.PIDS_COUNT);
    }

    @Test
    void streamingOutputIsStampedWhenRead() {
        ParseResult result = parse("streaming.jsonl", AdapterOptions.NONE);

        assertThat(result.errors()).isEmpty();
        assertThat(select(result.samples(), MetricNames.CPU_CORES, Map.of())).extracting(Sample::getValue)
                .containsExactly(0.0042, 0.031, 1.8755);
        assertThat(result.samples()).allMatch(s -> s.getTimestamp().equals(READ_AT));
    }

    @Test
    void timestampsBeforeTheLineWin() {
        ParseResult result = parse("prefixed.jsonl", AdapterOptions.NONE);

        assertThat(select(result.samples(), MetricNames.CPU_CORES, Map.of())).extracting(Sample::getTimestamp)
                .containsExactly(Instant.ofEpochSecond(1796230800L, 250_000_000L),
                        Instant.parse("2026-12-02T17:00:02.5Z"));
    }

    @Test
    void badLinesAreNamedAndNeighboursKept() {
        ParseResult result = parse("malformed.jsonl", AdapterOptions.NONE);

        assertThat(result.errors()).extracting(ParseError::line).containsExactly(2L, 3L, 4L, 6L);
        assertThat(result.errors().get(0).field()).isEqualTo("CPUPerc");
        assertThat(result.errors().get(1).field()).isEqualTo("MemUsage");
        assertThat(select(result.samples(), MetricNames.CPU_CORES, Map.of())).extracting(Sample::getValue)
                .containsExactly(0.0042, 1.8755);
    }

    @Test
    void aContainerBelongsToOneGroup() {
        assertThatThrownBy(() -> DockerStatsAdapter.of(new AdapterOptions(Map.of("group.a", "x", "group.b", "x"))))
                .isInstanceOf(BadOptionException.class).hasMessageContaining("already in group");
    }
}
