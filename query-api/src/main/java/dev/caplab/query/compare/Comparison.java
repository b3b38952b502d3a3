package dev.caplab.query.compare;

import dev.caplab.query.web.Table;
import java.util.List;

/** Runs side by side, grouped by provider or tier, with the warnings a reader must see before concluding anything. */
public record Comparison(String groupBy, String metric, List<ComparisonRow> rows, List<String> warnings)
        implements Table {

    public Comparison {
        rows = List.copyOf(rows);
        warnings = List.copyOf(warnings);
    }

    @Override
    public Class<? extends Record> rowType() {
        return ComparisonRow.class;
    }
}
