package dev.caplab.query.endpoints;

import dev.caplab.store.access.TrafficSampleRepository;
import dev.caplab.store.access.TrafficSampleRepository.SeriesSelection;
import dev.caplab.store.row.RequestGroupRows;
import dev.caplab.store.row.TrafficPointRow;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.stereotype.Component;

/** {@link EndpointSamples} from the store's raw samples in ClickHouse. */
@Component
class StoreEndpointSamples implements EndpointSamples {

    private final TrafficSampleRepository samples;

    StoreEndpointSamples(DataSource dataSource) {
        this.samples = new TrafficSampleRepository(dataSource);
    }

    @Override
    public List<TrafficPointRow> points(String runId, List<SeriesSelection> selections) {
        return samples.points(runId, selections);
    }

    @Override
    public RequestGroupRows requestGroups(String runId, Collection<String> metrics, String requiredLabel,
            List<List<String>> keyLabels, Map<String, String> failureLabels, boolean onlyFailed, long[] fromMicros,
            long[] toMicros, List<Double> quantiles) {
        return samples.requestGroups(runId, metrics, requiredLabel, keyLabels, failureLabels, onlyFailed, fromMicros,
                toMicros, quantiles);
    }
}
