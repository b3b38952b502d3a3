package dev.caplab.ingest.jmeter;

import static dev.caplab.ingest.adapter.Fixtures.only;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.ingest.adapter.FieldException;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryWindow;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The rows of jmeter/backend-listener.lp, as the line-protocol path hands them over (tags, numeric fields). */
class BackendListenerRowsTest {

    private static final Instant AT = Instant.ofEpochSecond(1733155205L);

    @Test
    void transactionRowIsAWindowSummary() {
        Map<String, Double> fields = new LinkedHashMap<>();
        fields.putAll(Map.of("count", 50.0, "countError", 3.0, "hit", 50.0, "avg", 104.2, "min", 11.0,
                "max", 2003.0, "sb", 6000.0, "rb", 80000.0));
        fields.putAll(Map.of("pct90.0", 180.0, "pct95.0", 250.0, "pct99.0", 1900.0));

        List<Sample> samples = BackendListenerRows.toSamples(AT, "jmeter",
                Map.of("application", "shop", "statut", "all", "transaction", "all"), fields);

        Sample duration = only(samples, MetricNames.HTTP_DURATION_MS, Map.of());
        assertThat(duration.getKind()).isEqualTo(SampleKind.SUMMARY);
        assertThat(duration.getSummary().getWindow()).isEqualTo(SummaryWindow.WINDOW);
        assertThat(duration.getSummary().getCount()).isEqualTo(50);
        assertThat(duration.getSummary().getQuantiles()).containsExactlyInAnyOrderEntriesOf(
                Map.of("0.9", 180.0, "0.95", 250.0, "0.99", 1900.0));
        assertThat(duration.getValue()).isEqualTo(104.2);
        assertThat(duration.getLabels()).containsEntry("aggregation", "jmeter-backend-listener")
                .containsEntry("statut", "all").containsEntry("window", "window").containsEntry("name", "all");
        assertThat(only(samples, MetricNames.HTTP_FAILED_WINDOW_COUNT, Map.of()).getValue()).isEqualTo(3.0);
        assertThat(only(samples, MetricNames.HTTP_RESP_WINDOW_BYTES, Map.of()).getValue()).isEqualTo(80000.0);
    }

    /** JMeter 5.6.3 writes the total row's avg, min, max and percentiles of successes only: none when all failed. */
    @Test
    void aTotalRowOfOnlyFailuresKeepsItsRequestsAndFailures() {
        List<Sample> samples = BackendListenerRows.toSamples(AT, "jmeter",
                Map.of("application", "shop", "statut", "all", "transaction", "all"),
                Map.of("count", 7.0, "countError", 7.0, "hit", 7.0, "sb", 700.0, "rb", 900.0));

        assertThat(only(samples, MetricNames.HTTP_REQS_WINDOW_COUNT, Map.of()).getValue()).isEqualTo(7.0);
        assertThat(only(samples, MetricNames.HTTP_FAILED_WINDOW_COUNT, Map.of()).getValue()).isEqualTo(7.0);
    }

    @Test
    void internalRowGivesActiveThreads() {
        List<Sample> samples = BackendListenerRows.toSamples(AT, "jmeter",
                Map.of("application", "shop", "transaction", "internal"),
                Map.of("minAT", 2.0, "maxAT", 4.0, "meanAT", 3.0, "startedT", 4.0, "endedT", 0.0));

        Sample threads = only(samples, MetricNames.JMETER_THREADS, Map.of());
        assertThat(threads.getValue()).isEqualTo(3.0);
        assertThat(threads.getSummary().getMax()).isEqualTo(4.0);
        assertThat(only(samples, MetricNames.JMETER_THREADS_STARTED_WINDOW_COUNT, Map.of()).getValue()).isEqualTo(4.0);
    }

    @Test
    void errorRowIsAFailedCount() {
        List<Sample> samples = BackendListenerRows.toSamples(AT, "jmeter", Map.of("application", "shop",
                "transaction", "login", "responseCode", "401", "responseMessage", "Unauthorized"), Map.of("count", 3.0));

        assertThat(samples).singleElement().satisfies(s -> {
            assertThat(s.getMetric()).isEqualTo(MetricNames.HTTP_FAILED_WINDOW_COUNT);
            assertThat(s.getLabels()).containsEntry("responseCode", "401");
        });
    }

    @Test
    void unknownFieldsAreKeptAndNegativeCountsRejected() {
        List<Sample> samples = BackendListenerRows.toSamples(AT, "jmeter", Map.of("transaction", "all"),
                Map.of("count", 1.0, "avg", 5.0, "maxLatency", 9.0));
        assertThat(only(samples, "jmeter.maxLatency", Map.of()).getValue()).isEqualTo(9.0);

        assertThatThrownBy(() -> BackendListenerRows.toSamples(AT, "jmeter", Map.of("transaction", "all"),
                Map.of("count", -1.0, "avg", 5.0)))
                .isInstanceOfSatisfying(FieldException.class, e -> assertThat(e.field()).isEqualTo("count"));
    }
}
