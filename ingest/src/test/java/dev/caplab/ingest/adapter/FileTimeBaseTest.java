package dev.caplab.ingest.adapter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.Sample;
import java.io.BufferedReader;
import java.io.StringReader;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Files keep their own time base (issue 13, item 3): every format is ingested as {@code caplab ingest --file} does
 * (not live) on a clock long after the file was written, and its samples carry the file's times, never the read
 * time. Rows that carry no time get {@code -o at=}, or are refused naming that option. Expected times are read by
 * hand from the fixtures.
 */
class FileTimeBaseTest {

    /** Read weeks after every fixture was written. */
    private static final Instant READ_AT = Instant.parse("2027-01-15T00:00:00Z");
    private static final Clock LATER = Clock.fixed(READ_AT, ZoneOffset.UTC);

    private record Ingested(List<Sample> samples, List<String> errors) {
        Instant first() {
            return samples.stream().map(Sample::getTimestamp).min(Comparator.naturalOrder()).orElseThrow();
        }

        Instant last() {
            return samples.stream().map(Sample::getTimestamp).max(Comparator.naturalOrder()).orElseThrow();
        }
    }

    private static Ingested ingestFile(String format, Map<String, String> options, String text) throws Exception {
        RecordingSink sink = new RecordingSink();
        List<String> errors = new ArrayList<>();
        new InputPublisher(Adapters.create(format, new AdapterOptions(options)), "run-1", sink, errors::add)
                .ingest("saved.file", new BufferedReader(new StringReader(text)), false, LATER);
        return new Ingested(sink.samples(), errors);
    }

    private static Ingested ingestFixture(String format, String resource) throws Exception {
        return ingestFile(format, Map.of(), Fixtures.text(resource));
    }

    @Test
    void locustHistoryKeepsItsTimestamps() throws Exception {
        Ingested in = ingestFixture("locust", "locust/cumulative_stats_history.csv");
        assertThat(in.errors()).isEmpty();
        // first and last rows: 1796230814,0,,Aggregated,... and 1796230824,6,,Aggregated,...
        assertThat(in.first()).isEqualTo(Instant.ofEpochSecond(1796230814L));
        assertThat(in.last()).isEqualTo(Instant.ofEpochSecond(1796230824L));
    }

    @Test
    void locustTotalsTakeTheGivenTimeOrAreRefused() throws Exception {
        Instant end = Instant.ofEpochSecond(1796230824L);
        for (String file : List.of("cumulative_stats.csv", "cumulative_failures.csv", "cumulative_exceptions.csv")) {
            Ingested timed = ingestFile("locust", Map.of("at", end.toString()), Fixtures.text("locust/" + file));
            assertThat(timed.errors()).as(file).isEmpty();
            assertThat(timed.samples()).as(file).isNotEmpty().allSatisfy(s -> assertThat(s.getTimestamp())
                    .isEqualTo(end));

            Ingested untimed = ingestFixture("locust", "locust/" + file);
            assertThat(untimed.samples()).as(file).isEmpty();
            assertThat(untimed.errors()).as(file).isNotEmpty().allSatisfy(e -> assertThat(e)
                    .startsWith("saved.file:").contains("timestamp: ").contains("_stats_history.csv")
                    .contains("-o at="));
        }
    }

    @Test
    void jmeterJtlKeepsItsTimestamps() throws Exception {
        Ingested in = ingestFixture("jmeter", "jmeter/results-with-header.jtl");
        assertThat(in.errors()).isEmpty();
        assertThat(in.first()).isEqualTo(Instant.ofEpochMilli(1733155200123L));
        assertThat(in.last()).isEqualTo(Instant.ofEpochMilli(1733155201240L));
    }

    @Test
    void k6JsonKeepsItsTimestamps() throws Exception {
        Ingested in = ingestFixture("k6-json", "k6/results.json");
        // the fixture's last point names another run
        assertThat(in.errors()).singleElement().asString().contains("other-run");
        // "2024-03-01T09:00:00.123456789+01:00" (to microseconds) .. "2024-03-01T08:00:02Z"
        assertThat(in.first()).isEqualTo(Instant.parse("2024-03-01T08:00:00.123456Z"));
        assertThat(in.last()).isEqualTo(Instant.parse("2024-03-01T08:00:02Z"));
    }

    @Test
    void iperfReportKeepsItsStartTime() throws Exception {
        Ingested in = ingestFixture("iperf3", "iperf/tcp-client.json");
        assertThat(in.errors()).isEmpty();
        // start.timestamp.timesecs 1796230959; the intervals end by 2.006953 s
        assertThat(in.first()).isAfterOrEqualTo(Instant.ofEpochSecond(1796230959L));
        assertThat(in.last()).isBeforeOrEqualTo(Instant.ofEpochSecond(1796230959L, 2_006_953_000L));
    }

    @Test
    void lineProtocolKeepsItsTimestamps() throws Exception {
        Ingested in = ingestFixture("influx-line", "influx/k6.lp");
        assertThat(in.errors()).isEmpty();
        assertThat(in.first()).isEqualTo(Instant.parse("2024-03-01T08:00:00.123456Z"));
        assertThat(in.last()).isEqualTo(Instant.parse("2024-03-01T08:00:01.5Z"));
    }

    @Test
    void dockerStatsKeepWrapperTimestamps() throws Exception {
        Ingested in = ingestFixture("docker-stats", "docker/prefixed.jsonl");
        assertThat(in.errors()).isEmpty();
        // lines prefixed "1796230800.250" and "2026-12-02T17:00:02.5Z"
        assertThat(in.first()).isEqualTo(Instant.ofEpochSecond(1796230800L, 250_000_000L));
        assertThat(in.last()).isEqualTo(Instant.parse("2026-12-02T17:00:02.5Z"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"docker-stats", "prometheus", "influx-line"})
    void undatedLinesOfAFileTakeAtOrAreRefused(String format) throws Exception {
        String undated = switch (format) {
            case "docker-stats" -> "{\"Container\":\"web\",\"CPUPerc\":\"50.00%\",\"MemUsage\":\"1MiB / 2MiB\","
                    + "\"MemPerc\":\"50.00%\",\"NetIO\":\"1kB / 2kB\",\"BlockIO\":\"0B / 0B\",\"PIDs\":\"3\"}\n";
            case "prometheus" -> "# TYPE node_load1 gauge\nnode_load1 0.5\n";
            default -> "cpu value=0.5\n";
        };
        Ingested refused = ingestFile(format, Map.of(), undated);
        assertThat(refused.samples()).isEmpty();
        assertThat(refused.errors()).isNotEmpty().allSatisfy(e -> assertThat(e).startsWith("saved.file:")
                .contains("timestamp: ").contains("-o at="));

        Instant at = Instant.parse("2026-12-02T10:15:00Z");
        Ingested timed = ingestFile(format, Map.of("at", at.toString()), undated);
        assertThat(timed.errors()).isEmpty();
        assertThat(timed.samples()).isNotEmpty().allSatisfy(s -> assertThat(s.getTimestamp()).isEqualTo(at));
    }

    @Test
    void prometheusLinesWithTimestampsKeepThem() throws Exception {
        Ingested in = ingestFile("prometheus", Map.of(), "# TYPE node_load1 gauge\nnode_load1 0.5 1796230800000\n"
                + "node_load1 0.7 1796230815500\n");
        assertThat(in.errors()).isEmpty();
        assertThat(in.samples()).extracting(Sample::getTimestamp).containsExactly(
                Instant.ofEpochMilli(1796230800000L), Instant.ofEpochMilli(1796230815500L));
    }

    @Test
    void readTimeStandsInOnlyWhenLive() throws Exception {
        RecordingSink sink = new RecordingSink();
        new InputPublisher(Adapters.create("prometheus", AdapterOptions.NONE), "run-1", sink, e -> { })
                .ingest("<stdin>", new BufferedReader(new StringReader("node_load1 0.5\n")), true, LATER);
        assertThat(sink.samples()).extracting(Sample::getTimestamp).containsExactly(READ_AT);
    }
}
