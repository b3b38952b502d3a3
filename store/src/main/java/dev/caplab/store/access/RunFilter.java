package dev.caplab.store.access;

import java.time.Instant;
import java.util.Optional;

/**
 * Which runs to list; empty components do not filter. {@code labelKey}/{@code labelValue} go together.
 *
 * @param limit at most this many runs, newest first
 */
public record RunFilter(Optional<String> sutName, Optional<String> provider, Optional<String> tier,
                        Optional<String> tool, Optional<String> labelKey, Optional<String> labelValue,
                        Optional<Instant> startedFrom, Optional<Instant> startedBefore, int limit) {

    public RunFilter {
        if (labelKey.isPresent() != labelValue.isPresent()) {
            throw new IllegalArgumentException("labelKey and labelValue must be given together");
        }
        if (limit < 1 || limit > 10_000) {
            throw new IllegalArgumentException("limit must be in [1, 10000], was " + limit);
        }
    }

    /** No filter, the newest 100 runs. */
    public static RunFilter all() {
        return new RunFilter(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), 100);
    }

    /** Same filter restricted to one system under test. */
    public RunFilter withSutName(String name) {
        return new RunFilter(Optional.of(name), provider, tier, tool, labelKey, labelValue, startedFrom,
                startedBefore, limit);
    }

    /** Same filter restricted to one provider. */
    public RunFilter withProvider(String name) {
        return new RunFilter(sutName, Optional.of(name), tier, tool, labelKey, labelValue, startedFrom,
                startedBefore, limit);
    }

    /** Same filter restricted to runs carrying {@code key=value}. */
    public RunFilter withLabel(String key, String value) {
        return new RunFilter(sutName, provider, tier, tool, Optional.of(key), Optional.of(value), startedFrom,
                startedBefore, limit);
    }
}
