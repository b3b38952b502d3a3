package dev.caplab.streams.rebuild;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What a rebuild did: its application id and generation, how many raw input records it processed, how many derived
 * records it sent to each derived topic, and how long it took.
 */
public record RebuildReport(String applicationId, Generation generation, long inputRecords,
                            Map<String, Long> derivedRecords, Duration elapsed) {

    public RebuildReport {
        Objects.requireNonNull(applicationId, "applicationId");
        Objects.requireNonNull(generation, "generation");
        derivedRecords = Map.copyOf(derivedRecords);
        Objects.requireNonNull(elapsed, "elapsed");
    }

    /** One line for an operator. */
    public String describe() {
        return String.format(java.util.Locale.ROOT, "rebuild %s (generation %d): %d raw records replayed, %s in %.1f s",
                applicationId, generation.value(), inputRecords, new TreeMap<>(derivedRecords).entrySet().stream()
                        .map(e -> e.getValue() + " to " + e.getKey()).collect(Collectors.joining(", ")),
                elapsed.toMillis() / 1000.0);
    }
}
