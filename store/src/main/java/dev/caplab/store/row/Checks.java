package dev.caplab.store.row;

import java.util.Map;
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
