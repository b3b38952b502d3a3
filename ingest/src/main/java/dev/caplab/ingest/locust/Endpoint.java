package dev.caplab.ingest.locust;

import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.ingest.adapter.csv.CsvRow;
import java.util.LinkedHashMap;
import java.util.Map;

/** The request a Locust row describes: its name and method, or the "Aggregated" total row. */
record Endpoint(String method, String name) {

    static final String AGGREGATED = "Aggregated";

    static Endpoint of(CsvRow row, String methodColumn) {
        return new Endpoint(row.text(methodColumn).orElse("").strip(), row.required("Name"));
    }

    boolean aggregated() {
        return method.isEmpty() && AGGREGATED.equals(name);
    }

    Map<String, String> labels() {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(LabelNames.NAME, name);
        if (!method.isEmpty()) {
            labels.put(LabelNames.METHOD, method);
        }
        return labels;
    }
}
