package dev.caplab.query.compare;

import dev.caplab.store.row.RunRow;
import java.util.Locale;
import java.util.Objects;

/** What a comparison groups runs by. */
public enum GroupBy {
    PROVIDER, TIER;

    String groupOf(RunRow run) {
        return this == PROVIDER ? run.provider() : Objects.requireNonNullElse(run.tier(), "unknown tier");
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
