package dev.caplab.ingest.adapter;

import dev.caplab.ingest.docker.DockerStatsAdapter;
import dev.caplab.ingest.influx.InfluxLineAdapter;
import dev.caplab.ingest.iperf.IperfAdapter;
import dev.caplab.ingest.jmeter.JmeterAdapter;
import dev.caplab.ingest.k6.K6JsonAdapter;
import dev.caplab.ingest.locust.LocustAdapter;
import dev.caplab.ingest.prometheus.PrometheusAdapter;
import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.ingest.parse.SampleChecks;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The registry of input formats by name, as {@code caplab ingest --format NAME} accepts them. */
public final class Adapters {

    private static final Map<String, AdapterFactory> FACTORIES = builtIn();

    private Adapters() {
    }

    private static Map<String, AdapterFactory> builtIn() {
        Map<String, AdapterFactory> factories = new LinkedHashMap<>();
        factories.put(LocustAdapter.FORMAT, LocustAdapter::of);
        factories.put(JmeterAdapter.FORMAT, JmeterAdapter::of);
        factories.put(DockerStatsAdapter.FORMAT, DockerStatsAdapter::of);
        factories.put(IperfAdapter.FORMAT, IperfAdapter::of);
        factories.put(PrometheusAdapter.FORMAT, PrometheusAdapter::of);
        factories.put(K6JsonAdapter.FORMAT, K6JsonAdapter::of);
        factories.put(InfluxLineAdapter.FORMAT, InfluxLineAdapter::of);
        return Collections.unmodifiableMap(factories);
    }

    public static Set<String> formats() {
        return FACTORIES.keySet();
    }

    /** The adapter for a format, configured with its options, behind the door ({@link CheckedAdapter}). */
    public static Adapter create(String format, AdapterOptions options) {
        AdapterFactory factory = FACTORIES.get(format);
        if (factory == null) {
            throw new UnknownFormatException(format, formats());
        }
        return new CheckedAdapter(factory.create(options), CHECKS);
    }

    private static final SampleChecks CHECKS = new SampleChecks(IngestLimits.DEFAULTS);
}
