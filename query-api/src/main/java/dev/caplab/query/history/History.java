package dev.caplab.query.history;

import dev.caplab.query.web.TabularResponse;
import java.util.List;

/**
 * How one cohort's conclusions moved across runs: the system, tier, tool and load expression followed, the resource
 * whose slope and knee are drawn and why that one, each series with its change points (model {@code changeModel}),
 * and the warnings a reader needs first. The CSV form is {@code rows}: every series' points.
 */
public record History(String sut, String tier, String tool, String loadExpression, String metric,
                      String metricChosenBy, String scope, String changeModel, List<SeriesHistory> series,
                      List<String> warnings) implements TabularResponse {

    public History {
        series = List.copyOf(series);
        warnings = List.copyOf(warnings);
    }

    @Override
    public List<HistoryPoint> rows() {
        return series.stream().flatMap(s -> s.points().stream()).toList();
    }

    @Override
    public Class<? extends Record> rowType() {
        return HistoryPoint.class;
    }
}
