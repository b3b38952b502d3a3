package dev.caplab.streams.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.ingest.adapter.AdapterOptions;
import dev.caplab.ingest.locust.LocustAdapter;
import dev.caplab.ingest.parse.ParseResult;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunStatus;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.Micros;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.TopologySettings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Locust 2.12 history written without {@code --csv-full-history} (ingest's test resource {@code
 * locust/stepped_cumulative_stats_history.csv}, made as {@code locust/stepped_cumulative_locustfile.py} says: 2, 5
 * and 10 users against {@code python3 -m http.server}), read by the real Locust adapter: its percentiles are since start, so no step
 * has percentiles, and each step's mean latency is Locust's own. The expectation is arithmetic on the file's own
 * Aggregated rows, read here with a plain split: between the last row before the step's steady part and the step's
 * last row, (Total Average Response Time × Total Request Count) grew by the requests' total milliseconds and Total
 * Request Count by their number.
 */
class LocustTotalsMeanTest {

    private static final String RUN = "locust-cumulative";
    private static final String RESOURCE = "/locust/stepped_cumulative_stats_history.csv";

    @TempDir
    Path stateDir;

    @Test
    void eachStepsMeanIsLocustsOwnTotalsDifferenceAndNoPercentilesAreShown() throws IOException {
        String text = read();
        List<Row> rows = text.lines().skip(1).map(Row::of).toList();
        ParseResult parsed = LocustAdapter.of(AdapterOptions.NONE).parse(text, Instant.now());
        assertThat(parsed.errors()).isEmpty();
        List<Sample> samples = parsed.samples();
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults(), stateDir)) {
            t.samples(RUN, samples);
            t.lifecycle(RUN, RunEnded.newBuilder().setRunId(RUN).setStatus(RunStatus.COMPLETED)
                    .setEndedAt(Instant.ofEpochSecond(rows.getLast().epochSecond() + 1)).setAllSamplesSent(true)
                    .build());
            t.advanceWallClock(Duration.ofSeconds(3)); // the task idle: the samples before the end were all read
            Map<String, StepAggregate> out = t.newestAggregates(MetricNames.THROUGHPUT_SOURCE);
            long warmupMicros = TopologySettings.defaults().inferredWarmup().toNanos() / 1000;
            int[] users = {2, 5, 10};
            for (int step = 0; step < users.length; step++) {
                StepAggregate mean = out.get(step + "|" + MetricNames.THROUGHPUT_LATENCY_TOTALS_MEAN_MS);
                assertThat(mean).as("step %d's mean in %s", step, out.keySet()).isNotNull();
                assertThat(mean.getLoad()).containsEntry(MetricNames.LOCUST_USERS, (double) users[step]);
                long steadyFrom = Micros.of(mean.getWindowStart()) + warmupMicros;
                long end = Micros.of(mean.getWindowEnd());
                Row first = rows.stream().filter(r -> r.epochSecond() * 1_000_000L < steadyFrom)
                        .reduce((a, b) -> b).orElseThrow();
                Row last = rows.stream().filter(r -> r.epochSecond() * 1_000_000L < end).reduce((a, b) -> b)
                        .orElseThrow();
                long requests = last.totalRequests() - first.totalRequests();
                double expected = (last.totalMeanMs() * last.totalRequests()
                        - first.totalMeanMs() * first.totalRequests()) / requests;
                String what = "step " + step + " from " + first + " to " + last;
                assertThat(requests).as(what).isGreaterThan(100);
                assertThat(mean.getCount()).as(what).isEqualTo(requests);
                assertThat(mean.getMean()).as(what).isCloseTo(expected, within(1e-9 * expected));
                assertThat(mean.getSustained()).as(what).isEqualTo(mean.getMean());
                System.out.printf(java.util.Locale.ROOT, "step %d (%d users): caplab mean %.4f ms over %d requests;"
                        + " Locust's totals %.4f ms; since start at the step's end %.4f ms%n", step, users[step],
                        mean.getMean(), mean.getCount(), expected, last.totalMeanMs());
                // the since-start mean at the step's end is another figure: the test would catch an echo of it
                assertThat(Math.abs(last.totalMeanMs() - expected)).as(what).isGreaterThan(0.01 * expected);
                assertThat(out).as("since-start percentiles are no step's")
                        .doesNotContainKey(step + "|" + MetricNames.THROUGHPUT_LATENCY_WINDOW_MEDIAN_MS)
                        .doesNotContainKey(step + "|" + MetricNames.THROUGHPUT_LATENCY_MS);
                // the step's request count is Locust's own counter increase, even where Locust skipped a report
                // at the step's end (this file lacks one in step 1): never requests/s × the step's seconds
                assertThat(out.get(step + "|" + MetricNames.THROUGHPUT_REQUESTS_PER_S).getCount())
                        .as("requests counted in " + what).isEqualTo(requests);
            }
            assertThat(out.keySet().stream().filter(k -> k.endsWith(MetricNames.THROUGHPUT_LATENCY_TOTALS_MEAN_MS)))
                    .hasSize(users.length);
        }
    }

    private static String read() throws IOException {
        try (InputStream in = LocustTotalsMeanTest.class.getResourceAsStream(RESOURCE)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** An Aggregated row of the history: its time and the totals columns this test reads. */
    private record Row(long epochSecond, long totalRequests, double totalMeanMs) {
        static Row of(String line) {
            List<String> f = Arrays.asList(line.split(",", -1));
            assertThat(f.get(3)).isEqualTo("Aggregated");
            // Timestamp, ..., Total Request Count (column 18), ..., Total Average Response Time (column 21)
            return new Row(Long.parseLong(f.get(0)), Long.parseLong(f.get(17)), Double.parseDouble(f.get(20)));
        }
    }
}
