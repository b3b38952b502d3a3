package dev.caplab.query.compare;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Runs of one system under test driven by one load expression: the only set of runs between which a comparison draws
 * claims about providers or tiers (a different server or a different x makes the same figures mean something else).
 */
public record Cohort(String sutName, String loadExpression, List<String> runIds, List<String> warnings) {

    static final String UNKNOWN = "?";

    public Cohort {
        runIds = List.copyOf(runIds);
        warnings = List.copyOf(warnings);
    }

    /** The rows split by system, then load expression, in name order; each cohort carries its own claims. */
    static List<Cohort> partition(List<ComparisonRow> rows) {
        Map<String, Map<String, List<ComparisonRow>>> bySystem = rows.stream().collect(Collectors.groupingBy(
                r -> Objects.requireNonNullElse(r.sutName(), UNKNOWN), TreeMap::new,
                Collectors.groupingBy(r -> Objects.requireNonNullElse(r.loadExpression(), UNKNOWN), TreeMap::new,
                        Collectors.toList())));
        return bySystem.entrySet().stream()
                .flatMap(system -> system.getValue().entrySet().stream().map(expression -> new Cohort(
                        system.getKey(), expression.getKey(),
                        expression.getValue().stream().map(ComparisonRow::runId).toList(),
                        ComparisonWarnings.within(expression.getValue()))))
                .toList();
    }

    /** Orders rows the way {@link #partition} orders cohorts, so a table reads cohort by cohort. */
    static Comparator<ComparisonRow> rowOrder() {
        return Comparator.comparing((ComparisonRow r) -> Objects.requireNonNullElse(r.sutName(), UNKNOWN))
                .thenComparing(r -> Objects.requireNonNullElse(r.loadExpression(), UNKNOWN))
                .thenComparing(ComparisonRow::group, Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparing(ComparisonRow::runId);
    }

    String label() {
        return sutName + " under load " + loadExpression;
    }
}
