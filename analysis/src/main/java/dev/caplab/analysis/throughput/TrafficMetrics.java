package dev.caplab.analysis.throughput;

import java.util.Map;
import java.util.Set;

/**
 * The one place that says which metrics of which load tools are requests, failures and latency, and the names of
 * the per-step throughput series caplab derives from them. Names are those the ingest adapters write (see the
 * metric catalogue in {@code ingest/README.md}):
 * <ul>
 *   <li>one GAUGE sample per request, the request's duration in milliseconds: {@code http.req.duration.ms}
 *       (Locust plugin, JMeter JTL), {@code http_req_duration} (k6 JSON output, k6 InfluxDB output) — their
 *       per-second sample counts are the requests, their per-second DDSketches give the latency percentiles;</li>
 *   <li>request totals since start (COUNTER, the step's rate is the throughput): {@code http.reqs.count} (Locust CSV),
 *       {@code k6_http_reqs_total} (k6 Prometheus remote write), {@code http.server.request.duration.count} and
 *       {@code http.client.request.duration.count} (OpenTelemetry HTTP semantic conventions, over OTLP);</li>
 *   <li>failure totals since start (COUNTER): {@code http.req.failed.count} (Locust CSV);</li>
 *   <li>a failed request among the above is one labelled {@code success=false} (Locust plugin, JTL) or
 *       {@code expected_response=false} (k6); k6 JSON also sends {@code http_req_failed} points, 1 per failed
 *       request and 0 per good one.</li>
 * </ul>
 * Per-request latency gauges win over counters when a step has both, so one request is never counted twice.
 */
public final class TrafficMetrics {

    /** Source of the derived per-step throughput series (no host or tool has this name: it has a colon). */
    public static final String SOURCE = "caplab:throughput";
    /** Derived: requests completed per second over the step's steady part. */
    public static final String REQUESTS_PER_S = "throughput.requests.per_s";
    /** Derived: failed requests / requests over the step's steady part (0–1). */
    public static final String ERRORS_RATIO = "throughput.errors.ratio";
    /** Derived: request latency in milliseconds; its quantiles come from the step's merged per-second sketches. */
    public static final String LATENCY_MS = "throughput.latency.ms";
    /** Derived: the load generator's sustained CPU use, % of its machine (the highest over generator sources). */
    public static final String LOADGEN_CPU_UTIL_PERCENT = "throughput.loadgen.cpu.util.percent";

    /** One GAUGE sample per request, valued in milliseconds. */
    public static final Set<String> LATENCY_PER_REQUEST_MS = Set.of("http.req.duration.ms", "http_req_duration");
    /** Request totals since start. */
    public static final Set<String> REQUEST_COUNTERS = Set.of("http.reqs.count", "k6_http_reqs_total",
            "http.server.request.duration.count", "http.client.request.duration.count");
    /** Failure totals since start. */
    public static final Set<String> FAILURE_COUNTERS = Set.of("http.req.failed.count");
    /** One GAUGE point per request: 1 when it failed, 0 when not (k6's {@code rate} metric). */
    public static final Set<String> FAILURE_FLAGS = Set.of("http_req_failed");
    /** Label values that mark a request (sample or counter series) as failed. */
    public static final Map<String, String> FAILURE_LABELS = Map.of("success", "false", "expected_response", "false");

    /**
     * The label that marks a source as the load generator, e.g. its host sampler started with
     * {@code role=loadgen}: its CPU tells whether the generator, not the server, limited the throughput.
     */
    public static final String ROLE_LABEL = "role";
    public static final String LOADGEN_ROLE = "loadgen";
    /** The generator's CPU metric: % of its whole machine (the host sampler's {@code cpu.util.percent}). */
    public static final String LOADGEN_CPU_METRIC = "cpu.util.percent";

    private TrafficMetrics() {
    }

    /** True for a metric whose values are request latencies in milliseconds (raw per request, or caplab's). */
    public static boolean latency(String metric) {
        return LATENCY_MS.equals(metric) || LATENCY_PER_REQUEST_MS.contains(metric);
    }

    /** True when labels mark a request as failed. */
    public static boolean failed(Map<String, String> labels) {
        return FAILURE_LABELS.entrySet().stream().anyMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }

    /** True when labels mark the series as the load generator's. */
    public static boolean loadGenerator(Map<String, String> labels) {
        return LOADGEN_ROLE.equals(labels.get(ROLE_LABEL));
    }
}
