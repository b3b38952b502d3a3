package dev.caplab.app.demo;

import java.util.List;
import java.util.Objects;

/** What one {@link DemoLoader#load} call did: runs written now, runs already on the topic, and what was sent. */
public record DemoLoadReport(List<String> loadedRunIds, List<String> alreadyPresentRunIds, long lifecycleEvents,
                             long sampleBatches, long samples) {

    public DemoLoadReport {
        loadedRunIds = List.copyOf(Objects.requireNonNull(loadedRunIds, "loadedRunIds"));
        alreadyPresentRunIds = List.copyOf(Objects.requireNonNull(alreadyPresentRunIds, "alreadyPresentRunIds"));
        if (lifecycleEvents < 0 || sampleBatches < 0 || samples < 0) {
            throw new IllegalArgumentException("event counts must be >= 0");
        }
    }

    /** One line for the console of {@code caplab up}. */
    public String summary() {
        if (loadedRunIds.isEmpty()) {
            return "demo data already loaded (" + alreadyPresentRunIds.size() + " runs)";
        }
        return "demo data loaded: " + loadedRunIds.size() + " runs, " + lifecycleEvents + " lifecycle events, "
                + samples + " samples in " + sampleBatches + " batches"
                + (alreadyPresentRunIds.isEmpty() ? "" : "; " + alreadyPresentRunIds.size() + " already present");
    }
}
