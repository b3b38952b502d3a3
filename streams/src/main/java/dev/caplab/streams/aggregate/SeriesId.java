package dev.caplab.streams.aggregate;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The identity of a series: source, metric and labels (sorted), with its key — the string partials are stored and
 * grouped under — computed once. The key's form ({@code source NUL metric NUL {k=v, …}}, labels in key order) is
 * part of the partials store's keys, so it must not change without a store migration.
 */
public record SeriesId(String source, String metric, SortedMap<String, String> labels, String key) {

    public SeriesId {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(labels, "labels");
        Objects.requireNonNull(key, "key");
    }

    public static SeriesId of(String source, String metric, Map<String, String> labels) {
        SortedMap<String, String> sorted = Collections.unmodifiableSortedMap(new TreeMap<>(labels));
        return new SeriesId(source, metric, sorted, key(source, metric, sorted));
    }

    /** The key of the series; {@code labels} must iterate in key order. */
    static String key(String source, String metric, Map<String, String> labels) {
        return source + '\u0000' + metric + '\u0000' + labels;
    }
}
