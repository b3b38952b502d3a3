package dev.caplab.query.compare;

import dev.caplab.query.runs.RunSummary;
import java.util.Locale;
import java.util.Objects;

/** What a comparison groups runs by. */
public enum GroupBy {
    PROVIDER, TIER;

    String groupOf(RunSummary run) {
        return this == PROVIDER ? run.provider() : Objects.requireNonNullElse(run.tier(), "unknown tier");
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
