package dev.caplab.ingest.remotewrite;

import dev.caplab.ingest.remotewrite.prompb.Types.MetricMetadata;
import dev.caplab.ingest.remotewrite.prompb.Types.MetricMetadata.MetricType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The metric types senders declared in {@code WriteRequest.metadata}, by family name. Prometheus sends metadata in
 * requests of its own (every minute, {@code metadata_config}), not beside the samples, so what one request declared
 * is remembered for later ones; bounded, least recently used first out. Thread-safe.
 */
public final class MetricFamilies {

    static final int DEFAULT_CAPACITY = 10_000;
    private static final List<String> SUFFIXES = List.of("_bucket", "_count", "_sum", "_total", "_created");

    private final Map<String, MetricType> types;

    public MetricFamilies() {
        this(DEFAULT_CAPACITY);
    }

    MetricFamilies(int capacity) {
        this.types = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, MetricType> eldest) {
                return size() > capacity;
            }
        };
    }

    /** Remembers every declared type but UNKNOWN (which says nothing). */
    public void learn(List<MetricMetadata> metadata) {
        if (metadata.isEmpty()) {
            return;
        }
        synchronized (types) {
            for (MetricMetadata m : metadata) {
                if (m.getType() != MetricType.UNKNOWN && m.getType() != MetricType.UNRECOGNIZED
                        && !m.getMetricFamilyName().isEmpty()) {
                    types.put(m.getMetricFamilyName(), m.getType());
                }
            }
        }
    }

    /** The declared type of the series' family (its name, else its name less a histogram/counter suffix), or null. */
    public MetricType typeOf(String seriesName) {
        synchronized (types) {
            MetricType exact = types.get(seriesName);
            if (exact != null) {
                return exact;
            }
            for (String suffix : SUFFIXES) {
                if (seriesName.endsWith(suffix)) {
                    MetricType family = types.get(seriesName.substring(0, seriesName.length() - suffix.length()));
                    if (family != null) {
                        return family;
                    }
                }
            }
            return null;
        }
    }
}
