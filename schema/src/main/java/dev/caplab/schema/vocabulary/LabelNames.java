package dev.caplab.schema.vocabulary;

/**
 * Label keys of samples, written by ingest and read by streams, the query API and the notebooks: one spelling for
 * every module. Tag keys that route a sample rather than label it ({@code run}, {@code run_id}, {@code source}) are
 * listed too, because a label of that name never reaches the store.
 */
public final class LabelNames {

    /** Routing tag: the run a sample belongs to (line protocol, k6 tags); {@code run_id} is accepted as well. */
    public static final String RUN = "run";
    public static final String RUN_ID = "run_id";
    /** Routing tag: the source (host, container, tool) a sample was measured on; else {@link #HOST}. */
    public static final String SOURCE = "source";

    /**
     * Two uses, told apart by the value: {@code true}/{@code false} marks whether a source belongs to the system
     * under test (contamination reads {@code sut=false}); any other value is the system's name, read as run metadata
     * when a run is inferred from its samples ({@code caplab ingest --sut NAME}).
     */
    public static final String SUT = "sut";
    /** Run metadata labels ({@code caplab ingest --sut-version/--provider/...}) read when a run is inferred. */
    public static final String SUT_VERSION = "sut_version";
    public static final String PROVIDER = "provider";
    public static final String REGION = "region";
    public static final String TIER = "tier";
    public static final String INSTANCE_TYPE = "instance_type";
    public static final String TOOL = "tool";
    /** Which system a container belongs to, so a system's containers can be summed (jitsi, bedrud, livekit). */
    public static final String SYSTEM = "system";
    /** The exporter recipe that turned a raw Prometheus series into a caplab metric, e.g. {@code node_exporter}. */
    public static final String RECIPE = "recipe";
    /** Prometheus summary quantile, a fraction in [0,1]; consumed into a QUANTILE sample's quantile map. */
    public static final String QUANTILE = "quantile";
    /** Prometheus histogram bucket bound. */
    public static final String LE = "le";
    /** iperf3 figures: {@code test} (whole test) or {@code interval}; and {@code sender} or {@code receiver}. */
    public static final String SCOPE = "scope";
    public static final String SIDE = "side";
    /** The CPU mode of a per-mode counter (user, system, ...). */
    public static final String MODE = "mode";

    /** {@code window} or {@code cumulative}: what a SUMMARY sample's statistics cover. */
    public static final String WINDOW = "window";
    /** Which tool or aggregation produced pre-aggregated values, e.g. {@code jmeter-backend-listener}. */
    public static final String AGGREGATION = "aggregation";
    /** The request name a load tool reports per endpoint (Locust name, JMeter label). */
    public static final String NAME = "name";
    public static final String METHOD = "method";
    /** A request's outcome: {@code false} marks it failed (Locust plugin, JMeter JTL's column of that name). */
    public static final String SUCCESS = "success";
    /** k6's tag on a request: {@code false} marks it failed. */
    public static final String EXPECTED_RESPONSE = "expected_response";
    /**
     * What a source is to the test: {@code sut}, {@code host}, {@code loadgen} or {@code agent} (analysis
     * {@code SourceRole}); set, it overrides the inferred role. {@code role=loadgen} marks the load generator's host
     * sampler.
     */
    public static final String ROLE = "role";
    /** The sampler that measured a series, e.g. {@code host-sampler} (caplab's /proc host sampler). */
    public static final String SAMPLER = "sampler";
    public static final String CONTAINER = "container";
    /** Several containers tagged with one group can be summed as one system. */
    public static final String GROUP = "group";
    public static final String INTERFACE = "interface";
    public static final String CPU = "cpu";
    public static final String CGROUP = "cgroup";
    public static final String HOST = "host";

    private LabelNames() {
    }
}
