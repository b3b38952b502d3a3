package dev.caplab.analysis.throughput;

import dev.caplab.analysis.source.SourceRole;
import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.vocabulary.MetricNames;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one place that says which metrics of which load tools are requests, failures and latency. The names themselves
 * are schema's vocabulary ({@link MetricNames}, {@link LabelNames}), and so is the rule of which fitted series is the
 * throughput fit rather than a resource ({@link MetricNames#throughputFit}: a stored fit answers it too); the
 * adapters write them (catalogue in {@code ingest/README.md}):
 * <ul>
 *   <li>one GAUGE sample per request, the request's duration in milliseconds: {@code http.req.duration.ms}
 *       (Locust plugin, JMeter JTL), {@code http_req_duration} (k6 JSON output, k6 InfluxDB output) — their
 *       per-second sample counts are the requests, their per-second DDSketches give the latency percentiles;</li>
 *   <li>request totals since start (COUNTER, the step's rate is the throughput): {@code http.reqs.count} (Locust CSV),
 *       {@code k6_http_reqs_total} (k6 Prometheus remote write), {@code http.server.request.duration.count} and
 *       {@code http.client.request.duration.count} (OpenTelemetry HTTP semantic conventions, over OTLP);</li>
 *   <li>failure totals since start (COUNTER): {@code http.req.failed.count} (Locust CSV);</li>
 *   <li>requests and failures per tool window (JMeter's InfluxDB backend listener, one row per send interval): the
 *       count of each WINDOW SUMMARY of {@code http.req.duration.ms}, plus {@code http.reqs.window.count} for a
 *       window whose row carried no latency (every request of it failed); failures
 *       {@code http.req.failed.window.count} (GAUGE, one value per window) — counters and per-request samples win
 *       over them;</li>
 *   <li>a failed request among the above is one labelled {@code success=false} (Locust plugin, JTL) or
 *       {@code expected_response=false} (k6); k6 JSON also sends {@code http_req_failed} points, 1 per failed
 *       request and 0 per good one.</li>
 * </ul>
 * Per-request latency gauges win over counters when a step has both, so one request is never counted twice.
 *
 * <p><b>Counted once.</b> Tools that aggregate also write a total row beside their per-endpoint rows: the two are
 * views of the same requests and never add up together ({@link #totalRow}, {@link #countedOnce}).
 */
public final class TrafficMetrics {

    /** One GAUGE sample per request, valued in milliseconds. */
    public static final Set<String> LATENCY_PER_REQUEST_MS = Set.of(MetricNames.HTTP_DURATION_MS,
            MetricNames.K6_HTTP_REQ_DURATION);
    /** Request totals since start. */
    public static final Set<String> REQUEST_COUNTERS = Set.of(MetricNames.HTTP_REQS_COUNT,
            MetricNames.K6_HTTP_REQS_TOTAL, MetricNames.OTEL_HTTP_SERVER_REQUEST_DURATION_COUNT,
            MetricNames.OTEL_HTTP_CLIENT_REQUEST_DURATION_COUNT);
    /** Summaries whose WINDOW counts are requests (a JMeter backend-listener row's {@code count}). */
    public static final Set<String> REQUEST_WINDOW_SUMMARIES = Set.of(MetricNames.HTTP_DURATION_MS);
    /** Requests of one tool window, one GAUGE value per window (a listener row without latency figures). */
    public static final Set<String> REQUEST_WINDOW_COUNTS = Set.of(MetricNames.HTTP_REQS_WINDOW_COUNT);
    /** Failures of one tool window, one GAUGE value per window (the listener's {@code countError}). */
    public static final Set<String> FAILURE_WINDOW_COUNTS = Set.of(MetricNames.HTTP_FAILED_WINDOW_COUNT);
    /** Failure totals since start. */
    public static final Set<String> FAILURE_COUNTERS = Set.of(MetricNames.HTTP_FAILED_COUNT);
    /** One GAUGE point per request: 1 when it failed, 0 when not (k6's {@code rate} metric). */
    public static final Set<String> FAILURE_FLAGS = Set.of(MetricNames.K6_HTTP_REQ_FAILED);
    /** Label values that mark a request (sample or counter series) as failed. */
    public static final Map<String, String> FAILURE_LABELS = Map.of(LabelNames.SUCCESS, "false",
            LabelNames.EXPECTED_RESPONSE, "false");

    /**
     * The {@link LabelNames#ROLE} value that marks a source as the load generator, e.g. its host sampler: its CPU
     * tells whether the generator, not the server, limited the throughput.
     */
    public static final String LOADGEN_ROLE = SourceRole.LOADGEN.label();
    /** The generator's CPU metric: % of its whole machine (the host sampler's {@code cpu.util.percent}). */
    public static final String LOADGEN_CPU_METRIC = MetricNames.CPU_UTIL_PERCENT;

    /** Locust's total row: name {@code Aggregated} and no method (stats and stats_history CSV). */
    public static final String LOCUST_TOTAL_NAME = "Aggregated";
    /** JMeter's total rows: the backend listener's {@code transaction=all}, an aggregate report's {@code TOTAL}. */
    public static final Set<String> JMETER_TOTAL_NAMES = Set.of("all", "TOTAL");
    /** The JMeter backend listener's outcome tag: {@code all} rows hold {@code ok} plus {@code ko}. */
    public static final String JMETER_OUTCOME = "statut";
    /**
     * Metrics whose series without a {@link LabelNames#NAME} are the total of their named siblings (k6 and OTLP
     * counters written once per request name and once overall): request and failure totals.
     */
    public static final Set<String> TOTAL_WITHOUT_NAME = java.util.stream.Stream.concat(REQUEST_COUNTERS.stream(),
            FAILURE_COUNTERS.stream()).collect(java.util.stream.Collectors.toUnmodifiableSet());

    /** Labels that carry a request's status code: k6's {@code status}, the JMeter listener's {@code responseCode}. */
    public static final List<String> STATUS_LABELS = List.of("status", "responseCode");
    /**
     * Labels that carry why a request failed: Locust's (plugin and {@code _failures.csv}) and k6's {@code error}, the
     * JMeter listener's {@code responseMessage}.
     */
    public static final List<String> ERROR_MESSAGE_LABELS = List.of("error", "responseMessage");
    /** Failure occurrences since start, one series per endpoint and message (Locust's {@code _failures.csv}). */
    public static final Set<String> ERROR_COUNTERS = Set.of(MetricNames.HTTP_ERRORS_COUNT);
    /** Failed requests per send window, one series per endpoint and response code (JMeter's listener). */
    public static final Set<String> ERROR_WINDOW_COUNTS = Set.of(MetricNames.HTTP_FAILED_WINDOW_COUNT);
    /** The label value that marks a series as the tool's totals since start ({@code _stats.csv}), not a history. */
    public static final String CUMULATIVE = "cumulative";

    private TrafficMetrics() {
    }

    /**
     * True when labels mark a tool's own total row: Locust's {@code Aggregated} (no method), JMeter's {@code all} or
     * {@code TOTAL}. A JMeter {@code statut=ok} or {@code ko} row of the total is a part of it, not the total.
     */
    public static boolean totalRow(Map<String, String> labels) {
        String name = labels.get(LabelNames.NAME);
        if (name == null) {
            return false;
        }
        if (LOCUST_TOTAL_NAME.equals(name)) {
            return !labels.containsKey(LabelNames.METHOD);
        }
        if (JMETER_TOTAL_NAMES.contains(name)) {
            String outcome = labels.get(JMETER_OUTCOME);
            return outcome == null || "all".equals(outcome);
        }
        return false;
    }

    /**
     * Which of one source's series of one metric to count: its total rows when it wrote any (explicit, or for
     * {@link #TOTAL_WITHOUT_NAME} the series without a name beside named ones), else all of them but JMeter's
     * {@code statut=ok} and {@code ko} rows beside a {@code statut=all} one. The other series are the per-endpoint
     * breakdown of the same requests (and a JMeter row's ok/ko parts): adding them to the total would count each
     * request twice.
     *
     * @param labelSets the label sets of one source's series of {@code metric}
     * @return the label sets to add up
     */
    public static List<Map<String, String>> countedOnce(String metric, List<Map<String, String>> labelSets) {
        List<Map<String, String>> totals = labelSets.stream().filter(TrafficMetrics::totalRow).toList();
        if (!totals.isEmpty()) {
            return totals;
        }
        if (TOTAL_WITHOUT_NAME.contains(metric) && labelSets.stream().anyMatch(l -> l.containsKey(LabelNames.NAME))) {
            List<Map<String, String>> unnamed = labelSets.stream().filter(l -> !l.containsKey(LabelNames.NAME))
                    .toList();
            if (!unnamed.isEmpty()) {
                return unnamed;
            }
        }
        if (labelSets.stream().anyMatch(l -> "all".equals(l.get(JMETER_OUTCOME)))) {
            return labelSets.stream().filter(l -> !l.containsKey(JMETER_OUTCOME) || "all".equals(l.get(JMETER_OUTCOME)))
                    .toList();
        }
        return labelSets;
    }

    /**
     * True when labels are one endpoint's own row: they name a request, are no total row of any tool (nor a part of
     * one: JMeter's {@code all} with {@code statut} ok or ko), and, for JMeter, are the endpoint's {@code statut=all}
     * row rather than its ok/ko parts. The per-endpoint breakdown reads these; requests/s per step reads
     * {@link #countedOnce}.
     */
    public static boolean endpointRow(Map<String, String> labels) {
        String name = labels.get(LabelNames.NAME);
        if (name == null || name.isEmpty() || totalRow(labels) || JMETER_TOTAL_NAMES.contains(name)) {
            return false;
        }
        String outcome = labels.get(JMETER_OUTCOME);
        return outcome == null || "all".equals(outcome);
    }

    /** The first of {@code keys} that labels carry a non-empty value for, else the empty string. */
    public static String firstLabel(Map<String, String> labels, List<String> keys) {
        return keys.stream().map(labels::get).filter(v -> v != null && !v.isEmpty()).findFirst().orElse("");
    }

    /** True for a metric whose values are request latencies in milliseconds (raw per request, or caplab's). */
    public static boolean latency(String metric) {
        return MetricNames.THROUGHPUT_LATENCY_MS.equals(metric)
                || MetricNames.THROUGHPUT_LATENCY_WINDOW_MEDIAN_MS.equals(metric)
                || MetricNames.THROUGHPUT_LATENCY_TOTALS_MEAN_MS.equals(metric) || LATENCY_PER_REQUEST_MS.contains(metric);
    }

    /** True when labels mark a request as failed. */
    public static boolean failed(Map<String, String> labels) {
        return FAILURE_LABELS.entrySet().stream().anyMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }

    /** True when labels mark the series as the load generator's ({@link SourceRole#LOADGEN}). */
    public static boolean loadGenerator(Map<String, String> labels) {
        return SourceRole.parse(labels.get(LabelNames.ROLE)).orElse(null) == SourceRole.LOADGEN;
    }

}
