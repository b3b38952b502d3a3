package dev.caplab.demo;

import dev.caplab.schema.event.Comparator;
import dev.caplab.schema.event.SloRule;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small constructors shared by the run families: ordered label and load maps, SLO rules, sample grids, units. */
final class DemoEvents {

    static final double MIB = 1024.0 * 1024.0;
    static final double GIB = 1024.0 * MIB;
    /** Bits per second in one Mbit/s: reports use decimal megabits. */
    static final double MBIT = 1_000_000.0;

    private DemoEvents() {
    }

    /** An insertion-ordered string map from alternating keys and values. */
    static Map<String, String> labels(String... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("labels need key/value pairs, got " + keysAndValues.length + " strings");
        }
        Map<String, String> labels = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            labels.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return labels;
    }

    /** Demo run labels: marks the run as generated and names the report it was rebuilt from. */
    static Map<String, String> runLabels(String sourceReport, String... more) {
        Map<String, String> labels = labels(DemoLabels.LABEL_DEMO, "true", DemoLabels.LABEL_SOURCE_REPORT, sourceReport);
        labels.putAll(labels(more));
        return labels;
    }

    static Map<String, Double> load(String dimension, double value) {
        Map<String, Double> load = new LinkedHashMap<>();
        load.put(dimension, value);
        return load;
    }

    static Map<String, Double> load(String first, double firstValue, String second, double secondValue) {
        Map<String, Double> load = load(first, firstValue);
        load.put(second, secondValue);
        return load;
    }

    /** A rule named by its text form ({@link SloText}), as the run API names a rule it parses. */
    static SloRule rule(String metric, String statistic, Comparator comparator, double threshold) {
        return new SloRule(SloText.of(metric, statistic, comparator, threshold), metric, statistic, comparator,
                threshold, null);
    }

    /** Instants from {@code from} every {@code every}, up to and including {@code to} when it falls on the grid. */
    static List<Instant> grid(Instant from, Instant to, Duration every) {
        List<Instant> instants = new ArrayList<>();
        for (Instant t = from; !t.isAfter(to); t = t.plus(every)) {
            instants.add(t);
        }
        return instants;
    }

    static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}
