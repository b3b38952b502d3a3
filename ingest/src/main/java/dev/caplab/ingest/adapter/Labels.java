package dev.caplab.ingest.adapter;

/** Label keys shared by several adapters, so queries can rely on one spelling. */
public final class Labels {

    /** {@code window} or {@code cumulative}: what a SUMMARY sample's statistics cover. */
    public static final String WINDOW = "window";
    /** Which tool or aggregation produced pre-aggregated values, e.g. {@code jmeter-backend-listener}. */
    public static final String AGGREGATION = "aggregation";
    /** The request name a load tool reports per endpoint (Locust name, JMeter label). */
    public static final String NAME = "name";
    public static final String METHOD = "method";
    public static final String CONTAINER = "container";
    /** Several containers tagged with one group can be summed as one system. */
    public static final String GROUP = "group";
    public static final String INTERFACE = "interface";
    public static final String CPU = "cpu";
    public static final String CGROUP = "cgroup";
    public static final String HOST = "host";

    private Labels() {
    }
}
