package dev.caplab.ingest.locust;

import static dev.caplab.schema.vocabulary.MetricNames.HTTP_DURATION_MS;
import static dev.caplab.schema.vocabulary.MetricNames.HTTP_FAILED_COUNT;
import static dev.caplab.schema.vocabulary.MetricNames.HTTP_FAILED_PER_S;
import static dev.caplab.schema.vocabulary.MetricNames.HTTP_REQS_COUNT;
import static dev.caplab.schema.vocabulary.MetricNames.HTTP_REQS_PER_S;
import static dev.caplab.schema.vocabulary.MetricNames.HTTP_RESP_AVG_BYTES;
import static dev.caplab.schema.vocabulary.MetricNames.LOCUST_USERS;

import dev.caplab.ingest.adapter.FieldException;
import dev.caplab.ingest.adapter.ResultBuilder;
import dev.caplab.schema.sample.Samples;
import dev.caplab.ingest.adapter.csv.CsvHeader;
import dev.caplab.ingest.adapter.csv.CsvRow;
import dev.caplab.ingest.adapter.csv.RowMapper;
import dev.caplab.schema.event.SummaryStats;
import dev.caplab.schema.event.SummaryWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Rows of {@code _stats_history.csv}. Each interval Locust writes one row per endpoint (only with
 * {@code --csv-full-history}) followed by the "Aggregated" row, all with the same timestamp. Per-endpoint rows in a
 * timestamp group therefore prove windowed percentiles; an Aggregated row with requests but without them proves
 * cumulative ones. The totals columns are always cumulative and are emitted as such.
 */
final class HistoryRows implements RowMapper {

    /** Locust's CURRENT_RESPONSE_TIME_PERCENTILE_WINDOW, seconds. */
    static final Duration LOCUST_WINDOW = Duration.ofSeconds(10);

    private final String source;
    private final HistoryMode configured;
    private final List<String> percentileColumns;
    private long groupTimestamp = Long.MIN_VALUE;
    private boolean groupHasEndpoints;

    HistoryRows(CsvHeader header, String source, HistoryMode configured) {
        this.source = source;
        this.configured = configured;
        this.percentileColumns = ResponseTimes.percentileColumns(header);
    }

    @Override
    public void map(CsvRow row, ResultBuilder out) {
        long seconds = row.integer("Timestamp");
        Instant at = Instant.ofEpochSecond(seconds);
        Endpoint endpoint = Endpoint.of(row, "Type");
        long users = row.integer("User Count");
        if (users < 0) {
            throw new FieldException("User Count", "negative: " + users);
        }
        Map<String, String> labels = endpoint.labels();
        Map<String, Double> quantiles = ResponseTimes.quantiles(row, percentileColumns);
        long count = row.integer(ResponseTimes.Columns.HISTORY.count());
        HistoryMode mode = modeOf(seconds, endpoint, count);

        if (endpoint.aggregated()) {
            // the user count is the load level: steps are inferred from its changes
            out.sample(Samples.gauge(at, source, LOCUST_USERS, users, Map.of()));
        }
        out.sample(Samples.gauge(at, source, HTTP_REQS_PER_S, rate(row, "Requests/s"), labels));
        out.sample(Samples.gauge(at, source, HTTP_FAILED_PER_S, rate(row, "Failures/s"), labels));
        out.sample(Samples.counter(at, source, HTTP_REQS_COUNT, count, labels));
        out.sample(Samples.counter(at, source, HTTP_FAILED_COUNT,
                row.integer(ResponseTimes.Columns.HISTORY.failures()), labels));
        if (count == 0) {
            return;
        }
        Map<String, Double> cumulativeQuantiles = mode == HistoryMode.CUMULATIVE ? quantiles : Map.of();
        out.sample(Samples.summary(at, source, HTTP_DURATION_MS,
                ResponseTimes.cumulative(row, ResponseTimes.Columns.HISTORY, cumulativeQuantiles), labels));
        out.sample(Samples.gauge(at, source, HTTP_RESP_AVG_BYTES,
                row.number(ResponseTimes.Columns.HISTORY.contentSize()), labels));
        // Locust writes 0 for every windowed percentile while its 10 s cache is still empty: that is no data
        boolean windowHasData = quantiles.values().stream().anyMatch(ms -> ms > 0);
        if (mode == HistoryMode.WINDOW && windowHasData) {
            SummaryStats window = SummaryStats.newBuilder()
                    .setWindow(SummaryWindow.WINDOW)
                    .setWindowMicros(LOCUST_WINDOW.toNanos() / 1000)
                    .setCount(0)
                    .setQuantiles(quantiles)
                    .build();
            out.sample(Samples.summary(at, source, HTTP_DURATION_MS, window, labels));
        }
    }

    private HistoryMode modeOf(long seconds, Endpoint endpoint, long count) {
        if (seconds != groupTimestamp) {
            groupTimestamp = seconds;
            groupHasEndpoints = false;
        }
        if (!endpoint.aggregated()) {
            groupHasEndpoints = true;
        }
        if (configured != HistoryMode.AUTO) {
            return configured;
        }
        if (groupHasEndpoints) {
            return HistoryMode.WINDOW;
        }
        // no endpoint rows and no requests: Locust wrote N/A, and the mode does not matter for this row
        return count > 0 ? HistoryMode.CUMULATIVE : HistoryMode.AUTO;
    }

    private static double rate(CsvRow row, String column) {
        return ResponseTimes.requireNonNegative(column, row.number(column));
    }
}
