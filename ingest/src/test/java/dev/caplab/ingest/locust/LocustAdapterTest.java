package dev.caplab.ingest.locust;

import static dev.caplab.ingest.adapter.Fixtures.only;
import static dev.caplab.ingest.adapter.Fixtures.select;
import static dev.caplab.ingest.adapter.Fixtures.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.ingest.adapter.AdapterOptions;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.ingest.parse.ParseResult;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryWindow;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Fixtures written by Locust 2.12 (Debian) against a local http.server: see locustfile.py beside them. */
class LocustAdapterTest {

    private static final Instant READ_AT = Instant.parse("2026-12-02T17:00:00Z");
    /** The time {@code caplab ingest} gives the totals files: their history's last timestamp. */
    private static final Instant HISTORY_END = Instant.ofEpochSecond(1796230824L);
    private final LocustAdapter adapter = LocustAdapter.of(new AdapterOptions(Map.of("at", HISTORY_END.toString())));

    private ParseResult parse(String resource) {
        return adapter.parse(text("locust/" + resource), READ_AT);
    }

    @Test
    void historyWithoutFullHistoryIsCumulative() {
        ParseResult result = parse("cumulative_stats_history.csv");

        assertThat(result.errors()).isEmpty();
        // row "1796230815,1,,Aggregated,...,4,4,4,4,15,15,15,15,15,15,15,9,0,4,4.81...,3.05...,14.89...,692.0"
        Instant at = Instant.ofEpochSecond(1796230815L);
        List<Sample> atSecond = result.samples().stream().filter(s -> s.getTimestamp().equals(at)).toList();
        Sample users = only(atSecond, MetricNames.LOCUST_USERS, Map.of());
        assertThat(users.getValue()).isEqualTo(1.0);
        Sample duration = only(atSecond, MetricNames.HTTP_DURATION_MS, Map.of("name", "Aggregated"));
        assertThat(duration.getKind()).isEqualTo(SampleKind.SUMMARY);
        assertThat(duration.getSummary().getWindow()).isEqualTo(SummaryWindow.CUMULATIVE);
        assertThat(duration.getLabels()).containsEntry("window", "cumulative");
        assertThat(duration.getSummary().getCount()).isEqualTo(9);
        assertThat(duration.getSummary().getMean()).isCloseTo(4.811075777752194, within(1e-12));
        assertThat(duration.getSummary().getQuantiles()).containsEntry("0.5", 4.0).containsEntry("0.95", 15.0)
                .containsEntry("0.999", 15.0).containsEntry("1", 15.0);
        assertThat(select(result.samples(), MetricNames.HTTP_DURATION_MS, Map.of()))
                .allMatch(s -> s.getSummary().getWindow() == SummaryWindow.CUMULATIVE);
    }

    @Test
    void userCountIsOneGaugePerInterval() {
        ParseResult result = parse("cumulative_stats_history.csv");

        List<Double> users = select(result.samples(), MetricNames.LOCUST_USERS, Map.of()).stream()
                .map(Sample::getValue).toList();
        assertThat(users).containsExactly(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 6.0, 6.0, 6.0, 6.0);
    }

    @Test
    void fullHistoryPercentilesAreWindowed() {
        ParseResult result = parse("windowed_stats_history.csv");

        assertThat(result.errors()).isEmpty();
        // row "1796230836,2,GET,/,0.000000,0.000000,4,4,4,4,5,6,6,6,6,6,6,17,0,4,4.549...,2.770...,16.282...,1009.0"
        Instant at = Instant.ofEpochSecond(1796230836L);
        List<Sample> root = select(result.samples(), MetricNames.HTTP_DURATION_MS, Map.of("name", "/", "method", "GET"))
                .stream().filter(s -> s.getTimestamp().equals(at)).toList();
        Sample window = only(root, MetricNames.HTTP_DURATION_MS, Map.of("window", "window"));
        assertThat(window.getSummary().getWindow()).isEqualTo(SummaryWindow.WINDOW);
        assertThat(window.getSummary().getWindowMicros()).isEqualTo(10_000_000L);
        assertThat(window.getSummary().getQuantiles()).containsEntry("0.9", 5.0).containsEntry("0.95", 6.0);
        Sample totals = only(root, MetricNames.HTTP_DURATION_MS, Map.of("window", "cumulative"));
        assertThat(totals.getSummary().getCount()).isEqualTo(17);
        // cumulative totals carry only the cumulative median, never the windowed percentiles
        assertThat(totals.getSummary().getQuantiles()).containsOnlyKeys("0.5");
    }

    @Test
    void emptyWindowCacheGivesNoWindowedSummary() {
        ParseResult result = parse("windowed_stats_history.csv");

        // at 1796230835 Locust wrote 0 for every percentile: its 10 s cache held nothing yet
        Instant at = Instant.ofEpochSecond(1796230835L);
        assertThat(select(result.samples(), MetricNames.HTTP_DURATION_MS, Map.of("window", "window")))
                .noneMatch(s -> s.getTimestamp().equals(at));
        assertThat(select(result.samples(), MetricNames.HTTP_REQS_COUNT, Map.of("name", "/missing")))
                .first().satisfies(s -> assertThat(s.getValue()).isEqualTo(2.0));
    }

    @Test
    void finalStatsAreCumulativeAndTakeTheRunsEnd() {
        ParseResult result = parse("cumulative_stats.csv");

        assertThat(result.errors()).isEmpty();
        // ",Aggregated,732,103,3,3.5575...,1.6899...,18.5655...,641.76...,38.5269...,5.4211...,3,3,4,4,5,7,10,12,19,19,19"
        Sample total = only(result.samples(), MetricNames.HTTP_DURATION_MS, Map.of("name", "Aggregated"));
        assertThat(total.getTimestamp()).isEqualTo(HISTORY_END);
        assertThat(total.getSummary().getWindow()).isEqualTo(SummaryWindow.CUMULATIVE);
        assertThat(total.getSummary().getCount()).isEqualTo(732);
        assertThat(total.getSummary().getMax()).isCloseTo(18.565518000059456, within(1e-12));
        assertThat(total.getSummary().getQuantiles()).containsEntry("0.99", 12.0).containsEntry("0.98", 10.0);
        Sample failed = only(result.samples(), MetricNames.HTTP_FAILED_COUNT, Map.of("name", "/missing"));
        assertThat(failed.getKind()).isEqualTo(SampleKind.COUNTER);
        assertThat(failed.getValue()).isEqualTo(103.0);
        assertThat(only(result.samples(), MetricNames.HTTP_REQS_PER_S, Map.of("name", "Aggregated")).getLabels())
                .containsEntry("window", "cumulative");
    }

    @Test
    void failuresAndMultiLineExceptionsAreCounters() {
        Sample failure = only(parse("cumulative_failures.csv").samples(), MetricNames.HTTP_ERRORS_COUNT, Map.of());
        assertThat(failure.getValue()).isEqualTo(103.0);
        assertThat(failure.getLabels()).containsEntry("method", "GET").containsEntry("name", "/missing")
                .containsEntry("error", "HTTPError('404 Client Error: File not found for url: "
                        + "http://127.0.0.1:18089/missing')");

        ParseResult exceptions = parse("cumulative_exceptions.csv");
        assertThat(exceptions.errors()).isEmpty();
        Sample exception = only(exceptions.samples(), MetricNames.LOCUST_EXCEPTIONS_COUNT, Map.of());
        assertThat(exception.getValue()).isEqualTo(29.0);
        assertThat(exception.getLabels()).containsEntry("message", "synthetic task failure");
        assertThat(exception.getLabels().get("traceback")).contains("raise ValueError(\"synthetic task failure\")\n");
    }

    @Test
    void forcedModeOverridesDetection() {
        ParseResult result = LocustAdapter.of(new AdapterOptions(Map.of("history", "window")))
                .parse(text("locust/cumulative_stats_history.csv"), READ_AT);

        assertThat(select(result.samples(), MetricNames.HTTP_DURATION_MS, Map.of("window", "window"))).isNotEmpty();
    }
}
