package dev.caplab.store.row;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.Objects;

/** Shared compact-constructor checks for the row records. */
final class Checks {

    private Checks() {
    }

    static String text(String value, String field) {
        Objects.requireNonNull(value, field);
        if (value.isBlank()) {
            throw new IllegalArgumentException(field + " must not be blank");
        }
        return value;
    }

    /** What a {@code DateTime64(6, 'UTC')} column holds; ClickHouse clamps a value outside it without a word. */
    static final Instant EARLIEST_STORABLE = Instant.parse("1900-01-01T00:00:00Z");
    static final Instant LATEST_STORABLE = Instant.parse("2299-12-31T23:59:59.999999Z");

    /** Refuses a time the column would silently clamp; null passes (nullable columns). */
    static Instant storable(Instant value, String field) {
        if (value != null && (value.isBefore(EARLIEST_STORABLE) || value.isAfter(LATEST_STORABLE))) {
            throw new IllegalArgumentException(field + " " + value + " is outside what ClickHouse's DateTime64 stores ("
                    + EARLIEST_STORABLE + " .. " + LATEST_STORABLE + ")");
        }
        return value;
    }

    /**
     * An unmodifiable copy in key order, for maps people read (labels, load dimensions): the same row serialises the
     * same way on every start, where {@link Map#copyOf}'s order changes from one JVM to the next.
     */
    static <V> Map<String, V> sortedMap(Map<String, V> value, String field) {
        return Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(value, field)));
    }

    static <K, V> Map<K, V> map(Map<K, V> value, String field) {
        return Map.copyOf(Objects.requireNonNull(value, field));
    }

    static long nonNegative(long value, String field) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " must be >= 0, was " + value);
        }
        return value;
    }
}
