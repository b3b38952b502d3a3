package dev.caplab.query.endpoints;

import dev.caplab.store.row.RequestGroupRow;
import dev.caplab.store.row.TrafficPointRow;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Reads a run's raw request samples for its per-endpoint breakdown ({@link StoreEndpointSamples}). */
public interface EndpointSamples {

    /** Every point of the run's series of {@code metrics} of one of {@code kinds}, by series and time. */
    List<TrafficPointRow> points(String runId, Collection<String> metrics, Collection<String> kinds);

    /** Per-request samples grouped by key labels and time slots (see {@code TrafficSampleRepository}). */
    List<RequestGroupRow> requestGroups(String runId, Collection<String> metrics, String requiredLabel,
            List<List<String>> keyLabels, Map<String, String> failureLabels, boolean onlyFailed, long[] fromMicros,
            long[] toMicros, List<Double> quantiles);
}
