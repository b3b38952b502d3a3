package dev.caplab.ingest.locust;

import static dev.caplab.schema.vocabulary.MetricNames.HTTP_DURATION_MS;
import static dev.caplab.schema.vocabulary.MetricNames.HTTP_FAILED_COUNT;
import static dev.caplab.schema.vocabulary.MetricNames.HTTP_FAILED_PER_S;
import static dev.caplab.schema.vocabulary.MetricNames.HTTP_REQS_COUNT;
import static dev.caplab.schema.vocabulary.MetricNames.HTTP_REQS_PER_S;
import static dev.caplab.schema.vocabulary.MetricNames.HTTP_RESP_AVG_BYTES;

import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.ingest.adapter.ResultBuilder;
import dev.caplab.schema.sample.Samples;
import dev.caplab.ingest.adapter.csv.CsvHeader;
import dev.caplab.ingest.adapter.csv.CsvRow;
import dev.caplab.ingest.adapter.csv.RowMapper;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rows of {@code _stats.csv}: totals since the start of the test, rewritten in place every interval and without a
 * timestamp, so they take the {@link TotalsTime} (the history's last timestamp). Everything here is cumulative, the request rates
 * included (requests over the whole run), and is labelled so: its counters are series of their own, apart from the
 * history's, whose last row they follow by up to a second with the same timestamp.
 */
final class StatsRows implements RowMapper {

    private final String source;
    private final List<String> percentileColumns;
    private final TotalsTime time;

    StatsRows(CsvHeader header, String source, TotalsTime time) {
        this.source = source;
        this.time = time;
        this.percentileColumns = ResponseTimes.percentileColumns(header);
    }

    @Override
    public void map(CsvRow row, ResultBuilder out) {
        Endpoint endpoint = Endpoint.of(row, "Type");
        Map<String, String> labels = endpoint.labels();
        Map<String, String> cumulative = new LinkedHashMap<>(labels);
        cumulative.put(LabelNames.WINDOW, "cumulative");
        long count = row.integer(ResponseTimes.Columns.STATS.count());
        Map<String, Double> quantiles = ResponseTimes.quantiles(row, percentileColumns);
        Instant at = time.instant();
        // its own series: stamped with the history's last timestamp but counted later (at Locust's exit), as the
        // history's counter it would add a jump of requests that second never saw
        out.sample(Samples.counter(at, source, HTTP_REQS_COUNT, count, cumulative));
        out.sample(Samples.counter(at, source, HTTP_FAILED_COUNT,
                row.integer(ResponseTimes.Columns.STATS.failures()), cumulative));
        out.sample(Samples.gauge(at, source, HTTP_REQS_PER_S,
                ResponseTimes.requireNonNegative("Requests/s", row.number("Requests/s")), cumulative));
        out.sample(Samples.gauge(at, source, HTTP_FAILED_PER_S,
                ResponseTimes.requireNonNegative("Failures/s", row.number("Failures/s")), cumulative));
        if (count > 0) {
            out.sample(Samples.summary(at, source, HTTP_DURATION_MS,
                    ResponseTimes.cumulative(row, ResponseTimes.Columns.STATS, quantiles), labels));
            out.sample(Samples.gauge(at, source, HTTP_RESP_AVG_BYTES,
                    row.number(ResponseTimes.Columns.STATS.contentSize()), labels));
        }
    }
}
