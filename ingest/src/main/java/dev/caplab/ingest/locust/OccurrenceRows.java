package dev.caplab.ingest.locust;

import dev.caplab.ingest.adapter.FieldException;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.ingest.adapter.ResultBuilder;
import dev.caplab.schema.sample.Samples;
import dev.caplab.ingest.adapter.csv.CsvRow;
import dev.caplab.ingest.adapter.csv.RowMapper;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Rows of {@code _failures.csv} and {@code _exceptions.csv}: occurrence totals since start, one counter per kind,
 * at the {@link TotalsTime} (the files carry no time).
 */
final class OccurrenceRows implements RowMapper {

    private final String source;
    private final LocustFile file;
    private final TotalsTime time;

    OccurrenceRows(LocustFile file, String source, TotalsTime time) {
        this.file = file;
        this.source = source;
        this.time = time;
    }

    @Override
    public void map(CsvRow row, ResultBuilder out) {
        Map<String, String> labels = new LinkedHashMap<>();
        String metric;
        String countColumn;
        if (file == LocustFile.FAILURES) {
            Endpoint endpoint = Endpoint.of(row, "Method");
            labels.putAll(endpoint.labels());
            labels.put("error", row.required("Error"));
            metric = MetricNames.HTTP_ERRORS_COUNT;
            countColumn = "Occurrences";
        } else {
            labels.put("message", row.required("Message"));
            labels.put("traceback", row.required("Traceback"));
            labels.put("nodes", row.required("Nodes"));
            metric = MetricNames.LOCUST_EXCEPTIONS_COUNT;
            countColumn = "Count";
        }
        long count = row.integer(countColumn);
        if (count < 0) {
            throw new FieldException(countColumn, "negative: " + count);
        }
        out.sample(Samples.counter(time.instant(), source, metric, count, labels));
    }
}
