package dev.caplab.query.compare;

import dev.caplab.query.web.TabularResponse;
import java.util.List;

/**
 * Runs side by side, grouped by provider or tier, with the warnings a reader must see before concluding anything.
 * {@code sut} is the one system compared (null when the caller asked across systems), {@code scope} says in words how
 * the runs were chosen, and {@code cohorts} splits the rows by system and load expression: claims about providers or
 * tiers are drawn only within a cohort.
 */
public record Comparison(String groupBy, String metric, String sut, String scope, List<ComparisonRow> rows,
                         List<Cohort> cohorts, List<String> warnings) implements TabularResponse {

    public Comparison {
        rows = List.copyOf(rows);
        cohorts = List.copyOf(cohorts);
        warnings = List.copyOf(warnings);
    }

    @Override
    public Class<? extends Record> rowType() {
        return ComparisonRow.class;
    }
}
