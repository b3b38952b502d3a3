package dev.caplab.schema.vocabulary;

/**
 * Metric names shared by the adapters: dotted, ending in their unit ({@code .ms}, {@code .bytes}, {@code .cores},
 * {@code .per_s}, {@code .count}, {@code .percent}, {@code .mbps}), so a fit never mixes units by accident.
 * The catalogue with meanings lives in {@code ingest/README.md}.
 */
public final class MetricNames {

    // load tools: per request or pre-aggregated by the tool
    public static final String HTTP_DURATION_MS = "http.req.duration.ms";
    public static final String HTTP_LATENCY_MS = "http.req.latency.ms";
    public static final String HTTP_CONNECT_MS = "http.req.connect.ms";
    public static final String HTTP_REQS_COUNT = "http.reqs.count";
    public static final String HTTP_FAILED_COUNT = "http.req.failed.count";
    public static final String HTTP_ERRORS_COUNT = "http.req.errors.count";
    public static final String HTTP_REQS_PER_S = "http.reqs.per_s";
    public static final String HTTP_FAILED_PER_S = "http.req.failed.per_s";
    public static final String HTTP_RESP_BYTES = "http.resp.bytes";
    public static final String HTTP_RESP_AVG_BYTES = "http.resp.avg.bytes";
    public static final String HTTP_SENT_BYTES = "http.req.sent.bytes";
    public static final String HTTP_REQS_WINDOW_COUNT = "http.reqs.window.count";
    public static final String HTTP_FAILED_WINDOW_COUNT = "http.req.failed.window.count";
    public static final String HTTP_HITS_WINDOW_COUNT = "http.hits.window.count";
    public static final String HTTP_SENT_WINDOW_BYTES = "http.req.sent.window.bytes";
    public static final String HTTP_RESP_WINDOW_BYTES = "http.resp.window.bytes";
    /** k6's per-request duration in ms, as k6 names it (its JSON output, InfluxDB writes): one sample per request. */
    public static final String K6_HTTP_REQ_DURATION = "http_req_duration";
    /** k6's per-request failure flag (its {@code rate} metric): 1 when the request failed, 0 when not. */
    public static final String K6_HTTP_REQ_FAILED = "http_req_failed";
    /** k6's request total since start, as its Prometheus remote write names it (counter). */
    public static final String K6_HTTP_REQS_TOTAL = "k6_http_reqs_total";
    /** OpenTelemetry HTTP semantic conventions over OTLP: the duration histograms' counts are request totals. */
    public static final String OTEL_HTTP_SERVER_REQUEST_DURATION_COUNT = "http.server.request.duration.count";
    public static final String OTEL_HTTP_CLIENT_REQUEST_DURATION_COUNT = "http.client.request.duration.count";
    /** k6's virtual users, as k6 names the metric (its JSON output and InfluxDB writes). */
    public static final String K6_VUS = "vus";
    /** A load generator's concurrent users when it names them plainly. */
    public static final String USERS = "users";
    public static final String LOCUST_USERS = "locust.users";
    /** The load-level metrics steps are inferred from by default, in order of preference: k6, Locust, plain. */
    public static final java.util.List<String> DEFAULT_LOAD_LEVELS = java.util.List.of(K6_VUS, LOCUST_USERS, USERS);
    public static final String LOCUST_EXCEPTIONS_COUNT = "locust.exceptions.count";
    public static final String JMETER_THREADS = "jmeter.threads";
    public static final String JMETER_GROUP_THREADS = "jmeter.group.threads";
    public static final String JMETER_IDLE_MS = "jmeter.idle.ms";
    public static final String JMETER_THREADS_STARTED_WINDOW_COUNT = "jmeter.threads.started.window.count";
    public static final String JMETER_THREADS_ENDED_WINDOW_COUNT = "jmeter.threads.ended.window.count";

    // WebRTC load generators (custom WHEP/LiveKit clients, lk load-test)
    /** Sessions (WHEP viewers, LiveKit subscribers) currently connected (gauge). */
    public static final String SESSIONS_CONNECTED = "sessions.connected";
    /** Sessions the step asks for (gauge). */
    public static final String SESSIONS_TARGET = "sessions.target";
    /** Sessions that did not connect within the tool's timeout (counter). */
    public static final String SESSION_CONNECT_FAILURES = "session.connect.failures";
    /** Video frames dropped by the receivers (counter). */
    public static final String FRAMES_DROPPED = "frames.dropped";
    /** lk load-test: RTP bytes received by all subscribers together (counter). */
    public static final String SUBSCRIBER_RX_BYTES = "subscriber.rx.bytes";
    /** lk load-test: RTP packets received by all subscribers (counter). */
    public static final String RTP_PACKETS_RECEIVED = "rtp.packets.received";
    /** lk load-test: RTP packets lost on the way to subscribers (counter). */
    public static final String RTP_PACKETS_LOST = "rtp.packets.lost";
    /** lk load-test summary: aggregate packet loss of the step, in percent (gauge, one value at step end). */
    public static final String RTP_LOSS_PERCENT = "rtp.loss.percent";
    /** lk load-test: tracks each connected subscriber received, averaged over subscribers (gauge). */
    public static final String TRACKS_SUBSCRIBED_PER_SUBSCRIBER = "tracks.subscribed.per_subscriber";
    /** lk load-test: tracks published in the room, i.e. what each subscriber should receive (gauge). */
    public static final String TRACKS_AVAILABLE_PER_SUBSCRIBER = "tracks.available.per_subscriber";

    // derived by streams per step from the load tools' metrics above (source THROUGHPUT_SOURCE)
    /** Source of the derived per-step throughput series (no host or tool has this name: it has a colon). */
    public static final String THROUGHPUT_SOURCE = "caplab:throughput";
    /** Requests completed per second over the step's steady part. */
    public static final String THROUGHPUT_REQUESTS_PER_S = "throughput.requests.per_s";
    /** Failed requests / requests over the step's steady part (0–1). */
    public static final String THROUGHPUT_ERRORS_RATIO = "throughput.errors.ratio";
    /** Request latency in ms; its quantiles come from the step's merged per-second sketches. */
    public static final String THROUGHPUT_LATENCY_MS = "throughput.latency.ms";
    /**
     * Request latency in ms as the tool itself computed it over its windows (Locust's 10 s history percentiles, the
     * JMeter backend listener's {@code pctNN}): per quantile the median of the tool's window values whose time falls
     * in the step's steady part; its count is the number of windows. Used where no per-request samples exist.
     */
    public static final String THROUGHPUT_LATENCY_WINDOW_MEDIAN_MS = "throughput.latency.window_median.ms";
    /**
     * Mean request latency in ms over the step's steady requests, from the tool's own since-start totals (Locust's
     * {@code Total Request Count} n and {@code Total Average Response Time} m): (m₂·n₂ − m₁·n₁) / (n₂ − n₁) between
     * the last reading before the steady part and the step's last; exact, no sketch. Its count is n₂ − n₁.
     */
    public static final String THROUGHPUT_LATENCY_TOTALS_MEAN_MS = "throughput.latency.totals_mean.ms";
    /** The load generator's sustained CPU use, % of its machine (the busiest generator source). */
    public static final String THROUGHPUT_LOADGEN_CPU_UTIL_PERCENT = "throughput.loadgen.cpu.util.percent";

    // resources of hosts, cgroups and containers
    public static final String CPU_CORES = "cpu.cores";
    /** docker's CPU %: percent of one core, 250 = 2.5 cores. */
    public static final String CPU_PERCENT = "cpu.percent";
    /** share of the whole machine (or one core, per-core samples), 0–100. */
    public static final String CPU_UTIL_PERCENT = "cpu.util.percent";
    public static final String CPU_USAGE_SECONDS = "cpu.usage.seconds";
    /** per-core figures have their own names so they never add into the machine's {@code cpu.cores}. */
    public static final String CPU_CORE_CORES = "cpu.core.cores";
    public static final String CPU_CORE_UTIL_PERCENT = "cpu.core.util.percent";
    public static final String MEM_BYTES = "mem.bytes";
    public static final String MEM_LIMIT_BYTES = "mem.limit.bytes";
    public static final String MEM_PERCENT = "mem.percent";
    public static final String MEM_AVAILABLE_BYTES = "mem.available.bytes";
    public static final String MEM_FREE_BYTES = "mem.free.bytes";
    public static final String MEM_CACHED_BYTES = "mem.cached.bytes";
    public static final String MEM_BUFFERS_BYTES = "mem.buffers.bytes";
    public static final String SWAP_USED_BYTES = "swap.used.bytes";
    public static final String NET_RX_BYTES = "net.rx.bytes";
    public static final String NET_TX_BYTES = "net.tx.bytes";
    public static final String NET_RX_PACKETS = "net.rx.packets";
    public static final String NET_TX_PACKETS = "net.tx.packets";
    public static final String NET_RX_DROPPED_PACKETS = "net.rx.dropped.packets";
    public static final String NET_TX_DROPPED_PACKETS = "net.tx.dropped.packets";
    public static final String NET_RX_ERRORS_COUNT = "net.rx.errors.count";
    public static final String NET_TX_ERRORS_COUNT = "net.tx.errors.count";
    public static final String BLOCK_READ_BYTES = "block.read.bytes";
    public static final String BLOCK_WRITE_BYTES = "block.write.bytes";
    public static final String PIDS_COUNT = "pids.count";

    // measured network ceilings (iperf3)
    public static final String NET_THROUGHPUT_MBPS = "net.throughput.mbps";
    public static final String NET_RETRANSMITS_COUNT = "net.retransmits.count";
    public static final String NET_JITTER_MS = "net.jitter.ms";
    public static final String NET_LOSS_PERCENT = "net.loss.percent";

    // the host sampler's own cost, so its overhead can be subtracted or flagged
    public static final String SAMPLER_CPU_MS = "sampler.cpu.ms";
    public static final String SAMPLER_DURATION_MS = "sampler.duration.ms";
    public static final String SAMPLER_PROCESS_CPU_CORES = "sampler.process.cpu.cores";

    /**
     * Streams' own step aggregate (source {@link #DERIVED_SOURCE}) that says a window it emitted rows for (the
     * baseline, the unassigned seconds) holds no samples any more; readers keep each window's newest revision and
     * leave this row out. No sample has this name.
     */
    public static final String EMPTY_WINDOW = "caplab.window.empty";
    /** Source of the aggregates streams derives itself rather than from one source's samples. */
    public static final String DERIVED_SOURCE = "caplab";

    /** The families of the resources of hosts, cgroups and containers above, by their names' first word. */
    private static final java.util.List<String> RESOURCE_FAMILIES = java.util.List.of("cpu.", "mem.", "swap.", "net.",
            "block.", "pids.");
    /** iperf3's figures: a measurement of the network's ceiling, not of what the system used. */
    private static final java.util.Set<String> CEILING_MEASUREMENTS = java.util.Set.of(NET_THROUGHPUT_MBPS,
            NET_RETRANSMITS_COUNT, NET_JITTER_MS, NET_LOSS_PERCENT);

    /**
     * How one resource of one source is named in a word, {@code metric@source} (e.g. {@code cpu.cores@node-1}): a step's
     * "over margin" resource and a run's bottleneck are written so, and compared so.
     */
    public static String resourceName(String metric, String source) {
        return metric + "@" + source;
    }

    /**
     * Whether {@code metric} is a reading of a resource of a host, cgroup or container (CPU, memory, swap, network,
     * disk, processes): what a resource fit is made of, as against a load tool's requests, latency and errors.
     */
    public static boolean resource(String metric) {
        return metric != null && !CEILING_MEASUREMENTS.contains(metric)
                && RESOURCE_FAMILIES.stream().anyMatch(metric::startsWith);
    }

    /**
     * True for the throughput fit: the per-step request rate fitted against load, whose knee is the run's throughput
     * limit. It is a fit but not a resource: it has no ceiling, so it never names the bottleneck, adds no capacity
     * estimate to a run's conclusion or a plan, and its knee or cliff is not a resource's. Every other fit is a
     * resource's.
     */
    public static boolean throughputFit(String source, String metric) {
        return THROUGHPUT_SOURCE.equals(source) && THROUGHPUT_REQUESTS_PER_S.equals(metric);
    }

    private MetricNames() {
    }
}
