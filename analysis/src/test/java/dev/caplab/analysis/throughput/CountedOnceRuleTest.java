package dev.caplab.analysis.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.vocabulary.MetricNames;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which rows of a tool are its total, per tool as each writes them. */
class CountedOnceRuleTest {

    @Test
    void locustAggregatedAloneIsCounted() {
        List<Map<String, String>> rows = List.of(Map.of("name", "/a", "method", "GET"),
                Map.of("name", "Aggregated"), Map.of("name", "/b", "method", "POST"));
        assertThat(TrafficMetrics.countedOnce(MetricNames.HTTP_REQS_COUNT, rows))
                .containsExactly(Map.of("name", "Aggregated"));
    }

    @Test
    void anEndpointNamedAggregatedWithAMethodIsAnEndpoint() {
        List<Map<String, String>> rows = List.of(Map.of("name", "Aggregated", "method", "GET"),
                Map.of("name", "/b", "method", "POST"));
        assertThat(TrafficMetrics.countedOnce(MetricNames.HTTP_REQS_COUNT, rows)).isEqualTo(rows);
    }

    @Test
    void jmeterListenerCountsTheAllTransactionsAllOutcomeOnly() {
        Map<String, String> all = Map.of("name", "all", "statut", "all");
        List<Map<String, String>> rows = List.of(all, Map.of("name", "all", "statut", "ok"),
                Map.of("name", "all", "statut", "ko"), Map.of("name", "login", "statut", "all"),
                Map.of("name", "login", "statut", "ok"));
        assertThat(TrafficMetrics.countedOnce(MetricNames.HTTP_DURATION_MS, rows)).containsExactly(all);
    }

    @Test
    void jmeterTransactionsWithoutTheListenersTotalCountTheirAllOutcomeOnly() {
        Map<String, String> login = Map.of("name", "login", "statut", "all");
        Map<String, String> search = Map.of("name", "search", "statut", "all");
        // error rows (responseCode, no statut) are failures of their transaction, not a part of its all row
        Map<String, String> loginErrors = Map.of("name", "login", "responseCode", "500");
        List<Map<String, String>> rows = List.of(login, Map.of("name", "login", "statut", "ok"),
                Map.of("name", "login", "statut", "ko"), search, Map.of("name", "search", "statut", "ok"),
                loginErrors);
        assertThat(TrafficMetrics.countedOnce(MetricNames.HTTP_DURATION_MS, rows))
                .containsExactly(login, search, loginErrors);
    }

    @Test
    void aRequestCounterWithoutANameBesideNamedOnesIsTheirTotal() {
        Map<String, String> overall = Map.of("status", "200");
        List<Map<String, String>> rows = List.of(Map.of("name", "/a", "status", "200"), overall,
                Map.of("name", "/b", "status", "200"));
        assertThat(TrafficMetrics.countedOnce(MetricNames.K6_HTTP_REQS_TOTAL, rows)).containsExactly(overall);
        // a resource's unnamed series is no total of anything
        assertThat(TrafficMetrics.countedOnce(MetricNames.CPU_CORES, rows)).isEqualTo(rows);
    }

    @Test
    void perEndpointRowsAloneAreAllCounted() {
        List<Map<String, String>> rows = List.of(Map.of("name", "/a"), Map.of("name", "/b"));
        assertThat(TrafficMetrics.countedOnce(MetricNames.K6_HTTP_REQS_TOTAL, rows)).isEqualTo(rows);
    }
}
