package dev.caplab.demo;

import java.util.List;
import java.util.Objects;

/** What one {@link DemoLoader#load} call did: runs sent now, runs the instance already had, and what was sent. */
public record DemoLoadReport(List<String> loadedRunIds, List<String> alreadyPresentRunIds, long lifecycleEvents,
                             long samples) {

    public DemoLoadReport {
        loadedRunIds = List.copyOf(Objects.requireNonNull(loadedRunIds, "loadedRunIds"));
        alreadyPresentRunIds = List.copyOf(Objects.requireNonNull(alreadyPresentRunIds, "alreadyPresentRunIds"));
        if (lifecycleEvents < 0 || samples < 0) {
            throw new IllegalArgumentException("event counts must be >= 0");
        }
    }

    /** One line for the console of {@code caplab up}. */
    public String summary() {
        if (loadedRunIds.isEmpty()) {
            return "demo data already loaded (" + alreadyPresentRunIds.size() + " runs)";
        }
        return "demo data loaded through " + DemoLoader.EVENTS_PATH + ": " + loadedRunIds.size() + " runs, "
                + lifecycleEvents + " lifecycle events, " + samples + " samples"
                + (alreadyPresentRunIds.isEmpty() ? "" : "; " + alreadyPresentRunIds.size() + " already present");
    }
}
