package dev.caplab.ingest.locust;

import static dev.caplab.ingest.adapter.Fixtures.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.ingest.adapter.AdapterOptions;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.parse.ParseResult;
import java.time.Instant;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Bad and truncated Locust files: errors name line and field, and every valid row around them is kept. */
class LocustMalformedTest {

    private static final Instant READ_AT = Instant.parse("2026-12-02T17:00:00Z");
    private final LocustAdapter adapter = LocustAdapter.of(AdapterOptions.NONE);

    @Test
    void badNumberIsReportedAndNeighboursKept() {
        List<String> lines = text("locust/cumulative_stats_history.csv").lines().toList();
        String bad = lines.get(4).replace(",3,,Aggregated,", ",three,,Aggregated,");
        assertThat(bad).contains("three");
        String input = String.join("\n", lines.subList(0, 4)) + "\n" + bad + "\n"
                + String.join("\n", lines.subList(5, lines.size())) + "\n";

        ParseResult result = adapter.parse(input, READ_AT);

        assertThat(result.errors()).singleElement().satisfies(e -> {
            assertThat(e.line()).isEqualTo(5);
            assertThat(e.field()).isEqualTo("User Count");
            assertThat(e.reason()).contains("three");
        });
        assertThat(result.samples().stream().filter(s -> s.getMetric().equals(MetricNames.LOCUST_USERS)))
                .hasSize(lines.size() - 2);
    }

    @Test
    void unknownHeaderRejectsEveryRowByLine() {
        ParseResult result = adapter.parse("a,b,c\n1,2,3\n4,5,6\n", READ_AT);

        assertThat(result.samples()).isEmpty();
        assertThat(result.errors()).extracting(ParseError::line).containsExactly(1L, 2L, 3L);
        assertThat(result.errors().getFirst().field()).isEqualTo("header");
    }

    @Test
    void unclosedTracebackIsReportedAtItsFirstLine() {
        String input = "Count,Message,Traceback,Nodes\n29,boom,\"  File \"\"x.py\"\", line 1\n    raise\n";

        ParseResult result = adapter.parse(input, READ_AT);

        assertThat(result.errors()).singleElement().satisfies(e -> {
            assertThat(e.line()).isEqualTo(2);
            assertThat(e.reason()).contains("truncated");
        });
    }

    /** Cutting the file anywhere loses at most the row that was cut, and says so when the cut row is damaged. */
    @Property(tries = 60)
    void truncationLosesOnlyTheCutRow(@ForAll @IntRange(min = 0, max = 5755) int cut) {
        String full = text("locust/windowed_stats_history.csv");
        String truncated = full.substring(0, Math.min(cut, full.length()));
        long completeRows = truncated.chars().filter(c -> c == '\n').count() - 1;

        ParseResult result = adapter.parse(truncated, READ_AT);

        assertThat(completeRowsSeen(result)).isBetween(Math.max(0, completeRows), Math.max(0, completeRows) + 1);
        assertThat(result.errors()).hasSizeLessThanOrEqualTo(1);
        result.errors().forEach(e -> assertThat(e.line()).isEqualTo(completeRows + 2));
    }

    private static long completeRowsSeen(ParseResult result) {
        // every history row gives exactly one http.reqs.count counter
        return result.samples().stream().filter(s -> s.getMetric().equals(MetricNames.HTTP_REQS_COUNT)).count();
    }
}
