package dev.caplab.query.endpoints;

import dev.caplab.store.access.TrafficSampleRepository.SeriesSelection;
import dev.caplab.store.row.RequestGroupRows;
import dev.caplab.store.row.TrafficPointRow;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Reads a run's raw request samples for its per-endpoint breakdown ({@link StoreEndpointSamples}). */
public interface EndpointSamples {

    /** Every point of the run's series of each selection: the first one's by series and time, then the next one's. */
    List<TrafficPointRow> points(String runId, List<SeriesSelection> selections);

    /**
     * Per-request samples grouped by key labels, per time slot and over the whole run (see
     * {@code TrafficSampleRepository}).
     */
    RequestGroupRows requestGroups(String runId, Collection<String> metrics, String requiredLabel,
            List<List<String>> keyLabels, Map<String, String> failureLabels, boolean onlyFailed, long[] fromMicros,
            long[] toMicros, List<Double> quantiles);
}
