package dev.caplab.store.row;

import java.util.Objects;

/**
 * How many runs share one combination of the values the runs list filters by (system, version, tier, provider,
 * tool, status, load expression); a nullable component is null when those runs did not give it.
 */
public record RunKindCount(String sutName, String sutVersion, String tier, String provider, String tool,
                           String status, String loadExpression, long runs) {

    public RunKindCount {
        Objects.requireNonNull(sutName, "sutName");
        if (runs < 1) {
            throw new IllegalArgumentException("a kind counts at least one run, got " + runs);
        }
    }
}
