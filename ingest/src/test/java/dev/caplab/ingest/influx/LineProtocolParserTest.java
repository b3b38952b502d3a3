package dev.caplab.ingest.influx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryWindow;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LineProtocolParserTest {

    private static final Instant RECEIVED = Instant.parse("2026-03-01T10:00:00Z");
    private static final Instant T = Instant.parse("2024-03-01T08:00:00Z");

    private final LineProtocolParser parser = new LineProtocolParser();

    private RoutedSamples parse(String body, TimestampPrecision precision, String db) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return parser.parse(bytes, 0, bytes.length, precision, db, RECEIVED);
    }

    private RoutedSamples parseFixture(String resource, String db) {
        byte[] bytes = Fixtures.bytes(resource);
        return parser.parse(bytes, 0, bytes.length, TimestampPrecision.NANOSECONDS, db, RECEIVED);
    }

    @Test
    void k6LinesMapValueFieldToTheMeasurementAndTagsToLabels() {
        RoutedSamples result = parseFixture("influx/k6.lp", "run-k6");

        assertThat(result.errors()).isEmpty();
        List<Sample> samples = result.samplesByRun().get("run-k6");
        assertThat(samples).extracting(Sample::getMetric, Sample::getValue).containsExactly(
                tuple("http_reqs", 1.0), tuple("http_req_duration", 112.734), tuple("vus", 10.0),
                tuple("iteration_duration", 1114.2), tuple("iteration_duration.vu", 3.0),
                tuple("iteration_duration.iter", 7.0));
        Sample duration = samples.get(1);
        assertThat(duration.getTimestamp()).isEqualTo(Instant.parse("2024-03-01T08:00:00.123456Z"));
        assertThat(duration.getSource()).isEqualTo(LineProtocolParser.DEFAULT_SOURCE);
        assertThat(duration.getLabels()).containsEntry("status", "200").containsEntry("url", "https://test.k6.io/")
                .hasSize(8);
    }

    @Test
    void aRepeatedSeriesKeyIsParsedOnceButEveryLineKeepsItsOwnMeaning() {
        // Same series key bytes on every line: runs from the db parameter, string fields, errors and line numbers
        // must still be those of each line, while the lines of one series share one label map.
        String key = "http_req_duration,method=GET,status=200 ";
        String body = key + "value=1 1709280000000000000\n"
                + key + "value=2 1709280001000000000\n"
                + key + "value=3,error=\"timeout\" 1709280002000000000\n"
                + key + "value=oops 1709280003000000000\n"
                + key + "value=4 1709280004000000000\n";
        RoutedSamples first = parse(body, TimestampPrecision.NANOSECONDS, "run-a");
        List<Sample> a = first.samplesByRun().get("run-a");
        assertThat(a).extracting(Sample::getValue).containsExactly(1.0, 2.0, 3.0, 4.0);
        assertThat(a.get(1).getLabels()).isSameAs(a.get(0).getLabels()).isSameAs(a.get(3).getLabels())
                .isEqualTo(Map.of("method", "GET", "status", "200"));
        assertThat(a.get(2).getLabels()).isEqualTo(Map.of("method", "GET", "status", "200", "error", "timeout"));
        assertThat(first.errors()).singleElement().satisfies(e -> {
            assertThat(e.line()).isEqualTo(4);
            assertThat(e.field()).isEqualTo("value");
        });
        RoutedSamples second = parse(body, TimestampPrecision.NANOSECONDS, "run-b");
        assertThat(second.samplesByRun()).containsOnlyKeys("run-b");
        assertThat(second.samplesByRun().get("run-b")).hasSize(4);
        // a string field that names the source changes the source of its line only
        RoutedSamples sourced = parse(key + "value=5 1709280005000000000\n"
                + key + "value=6,source=\"vm-9\" 1709280006000000000\n"
                + key + "value=7 1709280007000000000\n", TimestampPrecision.NANOSECONDS, "run-a");
        assertThat(sourced.samplesByRun().get("run-a")).extracting(Sample::getSource)
                .containsExactly(LineProtocolParser.DEFAULT_SOURCE, "vm-9", LineProtocolParser.DEFAULT_SOURCE);
    }

    @Test
    void telegrafLinesKeepTypesAndUseHostAsSource() {
        RoutedSamples result = parseFixture("influx/telegraf.lp", "run-t");

        assertThat(result.errors()).isEmpty();
        List<Sample> samples = result.samplesByRun().get("run-t");
        assertThat(samples).extracting(Sample::getMetric, Sample::getValue).contains(
                tuple("cpu.usage_user", 41.5), tuple("mem.used", 2147483648.0),
                tuple("net.bytes_sent", 987654321012.0), tuple("net.err_in", 0.0), tuple("system.n_cpus", 2.0));
        assertThat(samples).allSatisfy(s -> assertThat(s.getSource()).isEqualTo("sut-1"));
        Sample cpus = samples.stream().filter(s -> s.getMetric().equals("system.n_cpus")).findFirst().orElseThrow();
        assertThat(cpus.getLabels()).containsEntry("uptime_format", "5 days,  2:01");
        assertThat(samples).hasSize(9);
    }

    @Test
    void escapesInNamesTagsAndStringsAreDecoded() {
        RoutedSamples result = parseFixture("influx/escapes.lp", "run-e");

        assertThat(result.errors()).isEmpty();
        List<Sample> samples = result.samplesByRun().get("run-e");
        assertThat(samples.get(0).getMetric()).isEqualTo("weird,measure ment.field one");
        assertThat(samples.get(1).getMetric()).isEqualTo("weird,measure ment.field,two");
        assertThat(samples.get(0).getLabels()).containsEntry("tag key", "tag,value").containsEntry("eq=key", "a=b");
        assertThat(samples).filteredOn(s -> s.getMetric().startsWith("notes."))
                .extracting(Sample::getMetric, Sample::getValue)
                .containsExactly(tuple("notes.ok", 1.0), tuple("notes.bad", 0.0));
        assertThat(samples.get(2).getLabels()).containsEntry("msg", "say \"hi\"\\ back");
        Sample multi = samples.stream().filter(s -> s.getMetric().equals("multi.n")).findFirst().orElseThrow();
        assertThat(multi.getLabels()).containsEntry("text", "line one\nline two");
        assertThat(samples).extracting(Sample::getMetric).contains("http.req.duration.ms")
                .doesNotContain("jmeter.pct90.0", "jmeter.count");
    }

    /** JMeter's InfluxDB backend listener, as it writes to /write: per-interval summaries, never gauges per field. */
    @Test
    void backendListenerLinesBecomeWindowSummariesNotOneGaugePerField() {
        RoutedSamples result = parseFixture("jmeter/backend-listener.lp", "run-jm");

        assertThat(result.errors()).isEmpty();
        List<Sample> samples = result.samplesByRun().get("run-jm");
        assertThat(samples).extracting(Sample::getMetric).noneMatch(m -> m.startsWith("jmeter.pct")
                || m.equals("jmeter.count") || m.equals("jmeter.avg"));
        assertThat(samples).allSatisfy(s -> assertThat(s.getLabels())
                .containsEntry("aggregation", "jmeter-backend-listener").containsEntry("application", "shop"));
        Sample all = samples.stream().filter(s -> s.getMetric().equals("http.req.duration.ms")
                && "all".equals(s.getLabels().get("statut"))).findFirst().orElseThrow();
        assertThat(all.getKind()).isEqualTo(SampleKind.SUMMARY);
        assertThat(all.getSummary().getWindow()).isEqualTo(SummaryWindow.WINDOW);
        assertThat(all.getSummary().getCount()).isEqualTo(50);
        assertThat(all.getSummary().getMean()).isEqualTo(104.2);
        assertThat(all.getSummary().getMax()).isEqualTo(2003.0);
        assertThat(all.getSummary().getQuantiles()).containsEntry("0.95", 250.0);
        assertThat(all.getTimestamp()).isEqualTo(Instant.ofEpochSecond(1733155205L));
        assertThat(samples).filteredOn(s -> s.getMetric().equals("jmeter.threads")).singleElement()
                .satisfies(s -> assertThat(s.getSummary().getMean()).isEqualTo(3.0));
        assertThat(samples).filteredOn(s -> s.getMetric().equals("http.req.failed.window.count")
                        && "401".equals(s.getLabels().get("responseCode")))
                .singleElement().satisfies(s -> assertThat(s.getValue()).isEqualTo(3.0));
    }

    /** The listener's test start and end markers (string field only) are the run's annotations, not errors. */
    @Test
    void backendListenerEventsLinesAreAnnotationsAndOtherStringOnlyLinesStayRejected() {
        RoutedSamples result = parse("""
                events,application=shop,title=ApacheJMeter text="shop load started" 1709280000000000000
                events,application=shop,title=ApacheJMeter note="no text field" 1709280000000000000
                """, TimestampPrecision.NANOSECONDS, "run-jm");

        assertThat(result.samplesByRun()).isEmpty();
        assertThat(result.annotations()).singleElement().satisfies(a -> {
            assertThat(a.getRunId()).isEqualTo("run-jm");
            assertThat(a.getText()).isEqualTo("shop load started");
            assertThat(a.getAt()).isEqualTo(T);
            assertThat(a.getLabels()).containsEntry("application", "shop").containsEntry("title", "ApacheJMeter")
                    .containsEntry("aggregation", "jmeter-backend-listener").doesNotContainKey("text");
        });
        assertThat(result.errors()).extracting(ParseError::line, ParseError::reason)
                .containsExactly(tuple(2L, "only string fields: no numeric value to record"));
    }

    @Test
    void anImpossibleBackendListenerRowIsRejectedByFieldAndTheOthersKept() {
        RoutedSamples result = parse("""
                jmeter,transaction=all,statut=all count=-1i,avg=5 1709280000000000000
                jmeter,transaction=all,statut=all count=2i,avg=5 1709280000000000000
                """, TimestampPrecision.NANOSECONDS, "run-jm");

        assertThat(result.errors()).extracting(ParseError::line, ParseError::field).containsExactly(tuple(1L, "count"));
        assertThat(result.samplesByRun().get("run-jm")).singleElement()
                .satisfies(s -> assertThat(s.getSummary().getCount()).isEqualTo(2));
    }

    @Test
    void malformedLinesAreReportedByNumberAndEveryValidLineIsKept() {
        RoutedSamples result = parseFixture("influx/malformed.lp", "run-m");

        assertThat(result.samplesByRun().get("run-m")).extracting(Sample::getValue).containsExactly(1.0, 2.0);
        assertThat(result.errors()).extracting(ParseError::line, ParseError::reason).containsExactly(
                tuple(2L, "missing fields"),
                tuple(3L, "missing tag value"),
                tuple(4L, "invalid number 'abc'"),
                tuple(5L, "invalid timestamp '17092800000000x'"),
                tuple(7L, "unterminated string"));
        assertThat(result.errors().get(2).describe()).isEqualTo("line 4, field value: invalid number 'abc'");
        assertThat(result.errors().get(0).excerpt()).isEqualTo("cpu,host=a");
    }

    @Test
    void numberFormsFollowInfluxRules() {
        RoutedSamples result = parse("""
                m a=1,b=-1.5,c=1e3,d=2.5E-3,e=+4,f=.5,g=-0i,h=18446744073709551615u,i=TRUE,j=False,k=t 1709280000
                m x=1.2.3 1709280000
                m x=NaN 1709280000
                m x=1e 1709280000
                m x=-1u 1709280000
                m x=9223372036854775808i 1709280000
                m x=truth 1709280000
                """, TimestampPrecision.SECONDS, "r");

        assertThat(result.samplesByRun().get("r")).extracting(Sample::getValue)
                .containsExactly(1.0, -1.5, 1000.0, 0.0025, 4.0, 0.5, 0.0, 18446744073709551615.0, 1.0, 0.0, 1.0);
        assertThat(result.errors()).extracting(ParseError::line).containsExactly(2L, 3L, 4L, 5L, 6L, 7L);
        assertThat(result.errors()).extracting(ParseError::field).containsOnly("x");
    }

    @Test
    void longDecimalsFallBackToExactParsing() {
        RoutedSamples result = parse("m v=0.1000000000000000055511151231257827,w=123456789012345678901234 1709280000",
                TimestampPrecision.SECONDS, "r");
        assertThat(result.samplesByRun().get("r")).extracting(Sample::getValue)
                .containsExactly(0.1, 1.2345678901234568E23);
    }

    @Test
    void precisionScalesTimestampsAndMissingTimestampsGetTheReceiveTime() {
        RoutedSamples result = parse("m v=1 1709280000\nm v=2\r\nm v=3 1709280000250\n", TimestampPrecision.SECONDS,
                "r");
        // a millisecond epoch read as seconds is year 56,000: refused naming the field, never clamped
        assertThat(result.errors()).singleElement().satisfies(e -> {
            assertThat(e.line()).isEqualTo(3);
            assertThat(e.field()).isEqualTo("timestamp");
            assertThat(e.reason()).contains("outside the accepted range").contains("precision=ms");
        });
        List<Sample> samples = result.samplesByRun().get("r");
        assertThat(samples).hasSize(2);
        assertThat(samples.get(0).getTimestamp()).isEqualTo(T);
        assertThat(samples.get(1).getTimestamp()).isEqualTo(RECEIVED);

        RoutedSamples millis = parse("m v=3 1709280000250", TimestampPrecision.MILLISECONDS, "r");
        assertThat(millis.samplesByRun().get("r").getFirst().getTimestamp()).isEqualTo(T.plusMillis(250));
        RoutedSamples micros = parse("m v=3 1709280000000007", TimestampPrecision.MICROSECONDS, "r");
        assertThat(micros.samplesByRun().get("r").getFirst().getTimestamp()).isEqualTo(T.plusNanos(7_000));
        assertThat(TimestampPrecision.fromParameter("ms")).isEqualTo(TimestampPrecision.MILLISECONDS);
        assertThat(TimestampPrecision.fromParameter(null)).isEqualTo(TimestampPrecision.NANOSECONDS);
    }

    @Test
    void timestampOverflowingMicrosIsAnError() {
        RoutedSamples result = parse("m v=1 9223372036854775807", TimestampPrecision.HOURS, "r");
        assertThat(result.errors()).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("timestamp");
            assertThat(e.reason()).contains("does not fit precision h");
        });
    }

    @Test
    void runAndRunIdTagsRouteLinesAndAreNotLabels() {
        RoutedSamples result = parse("""
                m,run=a,x=1 v=1 1709280000
                m,run_id=b v=2 1709280000
                m,source=client-7 v=3 1709280000
                """, TimestampPrecision.SECONDS, "db");

        assertThat(result.samplesByRun()).containsOnlyKeys("a", "b", "db");
        assertThat(result.samplesByRun().get("a").getFirst().getLabels()).containsOnlyKeys("x");
        assertThat(result.samplesByRun().get("db").getFirst().getSource()).isEqualTo("client-7");
        assertThat(result.samplesByRun().get("db").getFirst().getLabels()).isEmpty();
    }

    @Test
    void lineWithoutRunAndWithoutDbIsRejected() {
        RoutedSamples result = parse("m v=1 1709280000\nm,run=a v=1 1709280000", TimestampPrecision.SECONDS, null);
        assertThat(result.samplesByRun()).containsOnlyKeys("a");
        assertThat(result.errors()).singleElement().extracting(ParseError::reason).asString().startsWith("no run");
    }

    @Test
    void blankLinesCommentsAndCrLfAreSkipped() {
        RoutedSamples result = parse("\n# comment\r\n   \nm v=1 1709280000\r\n\r\n", TimestampPrecision.SECONDS, "r");
        assertThat(result.errors()).isEmpty();
        assertThat(result.sampleCount()).isEqualTo(1);
    }

    @Test
    void stringOnlyLineIsRejectedNotSilentlyDropped() {
        RoutedSamples result = parse("log msg=\"hello\" 1709280000", TimestampPrecision.SECONDS, "r");
        assertThat(result.errors()).singleElement().extracting(ParseError::reason)
                .isEqualTo("only string fields: no numeric value to record");
    }
}
