package dev.caplab.query.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.query.endpoints.EndpointView;
import dev.caplab.query.endpoints.RunEndpoints;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The report's endpoint table shows a status column only when the tool tagged some row with one. */
class EndpointSectionTest {

    private static EndpointView endpoint(String name, String status) {
        // 7,643 requests over 80 s: 95.54 requests/s, as Locust's stats row says
        return new EndpointView(name, "GET", status, 7643L, 95.54, 0L, 0.0, 11.0, 44.0, 110.0, "the tool's counters");
    }

    @Test
    void aToolWithoutStatusesGetsNoEmptyStatusColumn() {
        String html = EndpointSection.render(new RunEndpoints("r",
                List.of(endpoint("/a", null), endpoint("/b", "")), List.of(), List.of()));

        assertThat(html).doesNotContain("<th>status</th>")
                .contains("The tool sent no status per endpoint: that column is left out.")
                // name, method, requests, requests/s, failures, errors, p50, p95, p99, from: ten cells a row
                .containsPattern("<tr class=\"endpoint\">(<td[^>]*>[^<]*</td>){10}</tr>");
    }

    @Test
    void oneTaggedRowKeepsTheColumnForAll() {
        String html = EndpointSection.render(new RunEndpoints("r",
                List.of(endpoint("/a", "200"), endpoint("/b", null)), List.of(), List.of()));

        assertThat(html).contains("<th>status</th>").doesNotContain("that column is left out")
                .containsPattern("<tr class=\"endpoint\">(<td[^>]*>[^<]*</td>){11}</tr>");
    }
}
