package dev.caplab.ingest.jmeter;

import static dev.caplab.ingest.adapter.Fixtures.only;
import static dev.caplab.ingest.adapter.Fixtures.select;
import static dev.caplab.ingest.adapter.Fixtures.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.ingest.adapter.AdapterOptions;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.parse.ParseResult;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** JTL CSV fixtures written in JMeter's documented default column order (JMeter 2.13 on Debian cannot run here). */
class JmeterAdapterTest {

    private static final Instant READ_AT = Instant.parse("2026-12-02T17:00:00Z");

    private static ParseResult parse(String resource, AdapterOptions options) {
        return JmeterAdapter.of(options).parse(text("jmeter/" + resource), READ_AT);
    }

    @Test
    void eachRowIsOneRequest() {
        ParseResult result = parse("results-with-header.jtl", AdapterOptions.NONE);

        assertThat(result.errors()).isEmpty();
        List<Sample> durations = select(result.samples(), MetricNames.HTTP_DURATION_MS, Map.of());
        assertThat(durations).extracting(Sample::getValue).containsExactly(125.0, 98.0, 12.0, 2003.0, 101.0);
        assertThat(durations).allMatch(s -> s.getKind() == SampleKind.GAUGE);
        Sample first = durations.getFirst();
        assertThat(first.getTimestamp()).isEqualTo(Instant.ofEpochMilli(1733155200123L));
        assertThat(first.getSource()).isEqualTo("jmeter");
        assertThat(first.getLabels()).containsEntry("name", "home").containsEntry("success", "true")
                .containsEntry("responseCode", "200").containsEntry("threadName", "Thread Group 1-1");
        assertThat(only(result.samples(), MetricNames.HTTP_CONNECT_MS, Map.of("threadName", "Thread Group 1-1",
                "name", "home")).getValue()).isEqualTo(45.0);
        assertThat(select(result.samples(), MetricNames.JMETER_THREADS, Map.of())).extracting(Sample::getValue)
                .containsExactly(1.0, 2.0, 2.0, 2.0, 3.0);
    }

    @Test
    void quotedMessagesWithCommasStayOneField() {
        ParseResult result = parse("results-with-header.jtl", AdapterOptions.NONE);

        Sample timeout = only(result.samples(), MetricNames.HTTP_DURATION_MS, Map.of("name", "search"));
        assertThat(timeout.getLabels()).containsEntry("success", "false")
                .containsEntry("responseMessage", "Non HTTP response message: Read timed out, after 2000 ms");
        assertThat(only(result.samples(), MetricNames.HTTP_DURATION_MS, Map.of("name", "login")).getLabels())
                .containsEntry("failureMessage", "Test failed: code expected to contain /200/");
    }

    @Test
    void headerlessFileUsesDefaultColumns() {
        ParseResult withHeader = parse("results-with-header.jtl", AdapterOptions.NONE);
        ParseResult headerless = parse("results-headerless.jtl", AdapterOptions.NONE);

        assertThat(headerless.errors()).isEmpty();
        assertThat(headerless.samples()).isEqualTo(withHeader.samples());
    }

    @Test
    void subsetOfColumnsAndSampleVariables() {
        ParseResult result = parse("results-subset.jtl", AdapterOptions.NONE);

        assertThat(result.errors()).isEmpty();
        assertThat(select(result.samples(), MetricNames.HTTP_LATENCY_MS, Map.of("region", "eu-west")))
                .extracting(Sample::getValue).containsExactly(120.0, 95.0);
        assertThat(select(result.samples(), MetricNames.JMETER_THREADS, Map.of())).isEmpty();
    }

    @Test
    void headerlessSubsetNeedsTheColumnsNamed() {
        String rows = "1733155200123,125,home\n1733155200350,98,home\n";

        ParseResult guessed = JmeterAdapter.of(AdapterOptions.NONE).parse(rows, READ_AT);
        ParseResult named = JmeterAdapter.of(new AdapterOptions(Map.of("columns", "timeStamp,elapsed,label")))
                .parse(rows, READ_AT);

        assertThat(guessed.samples()).isEmpty();
        assertThat(guessed.errors()).extracting(ParseError::reason).allMatch(r -> r.contains("expected 17 fields"));
        assertThat(named.errors()).isEmpty();
        assertThat(named.samples()).extracting(Sample::getValue).containsExactly(125.0, 98.0);
    }

    @Test
    void badRowsAreNamedAndTheRestKept() {
        ParseResult result = parse("malformed.jtl", AdapterOptions.NONE);

        assertThat(result.errors()).extracting(ParseError::line, ParseError::field).containsExactly(
                org.assertj.core.groups.Tuple.tuple(3L, "elapsed"),
                org.assertj.core.groups.Tuple.tuple(4L, "success"),
                org.assertj.core.groups.Tuple.tuple(5L, "timeStamp"),
                org.assertj.core.groups.Tuple.tuple(7L, null));
        assertThat(result.errors().getLast().reason()).contains("truncated");
        assertThat(select(result.samples(), MetricNames.HTTP_DURATION_MS, Map.of())).extracting(Sample::getValue)
                .containsExactly(125.0, 101.0);
    }
}
