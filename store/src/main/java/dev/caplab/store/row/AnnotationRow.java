package dev.caplab.store.row;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/** A row of {@code annotations}: a note on a run's timeline. */
public record AnnotationRow(String runId, Instant at, String text, Map<String, String> labels) implements RunScopedRow {

    public AnnotationRow {
        Checks.text(runId, "runId");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(text, "text");
        labels = Checks.sortedMap(labels, "labels");
    }
}
