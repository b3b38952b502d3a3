package dev.caplab.ingest.adapter;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Format-specific settings given as {@code key=value} pairs (CLI {@code -o}), e.g. {@code group.jitsi=web,jvb}. */
public record AdapterOptions(Map<String, String> values) {

    public static final AdapterOptions NONE = new AdapterOptions(Map.of());

    public AdapterOptions {
        values = Map.copyOf(values);
    }

    /** Parses {@code key=value} strings; a string without '=' is a {@link BadOptionException}. */
    public static AdapterOptions parse(List<String> pairs) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String pair : pairs) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new BadOptionException(pair, "expected key=value");
            }
            values.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
        }
        return new AdapterOptions(values);
    }

    public String text(String key, String fallback) {
        return values.getOrDefault(key, fallback);
    }

    /** An ISO-8601 instant with offset ({@code 2026-12-02T10:15:00Z}), empty when unset. */
    public Optional<Instant> instant(String key) {
        String value = values.get(key);
        if (value == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(OffsetDateTime.parse(value).toInstant());
        } catch (DateTimeParseException e) {
            throw new BadOptionException(key, "not an ISO-8601 instant with offset such as 2026-12-02T10:15:00Z: '"
                    + value + "'");
        }
    }

    /** These options with {@code key} set to {@code value}. */
    public AdapterOptions with(String key, String value) {
        Map<String, String> copy = new LinkedHashMap<>(values);
        copy.put(key, value);
        return new AdapterOptions(copy);
    }

    /** One of the allowed values, or the fallback when unset. */
    public String choice(String key, String fallback, Set<String> allowed) {
        String value = text(key, fallback);
        if (!allowed.contains(value)) {
            throw new BadOptionException(key, "must be one of " + allowed + ", was '" + value + "'");
        }
        return value;
    }

    /** The options whose keys start with {@code prefix}, keyed by the rest of the key. */
    public Map<String, String> withPrefix(String prefix) {
        Map<String, String> found = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                found.put(k.substring(prefix.length()), v);
            }
        });
        return found;
    }

    /** Rejects keys the format does not know, so a typo is not silently ignored. */
    public AdapterOptions requireKnown(String format, Set<String> keys, Set<String> prefixes) {
        for (String key : values.keySet()) {
            if (!keys.contains(key) && prefixes.stream().noneMatch(key::startsWith)) {
                throw new BadOptionException(key, "not an option of format " + format + " (known: " + keys
                        + (prefixes.isEmpty() ? "" : ", prefixes " + prefixes) + ")");
            }
        }
        return this;
    }
}
