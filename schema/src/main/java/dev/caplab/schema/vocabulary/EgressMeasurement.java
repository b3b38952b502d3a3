package dev.caplab.schema.vocabulary;

import java.util.Map;

/**
 * Which sample is a measured egress ceiling: the whole-test rate of an iperf3 sender,
 * {@value #METRIC} with {@code scope=test, side=sender} (as {@code caplab ingest --format iperf3} writes it). It
 * becomes the run's measured egress unless the run declared one ({@code Environment.measuredEgressMbps}); it beats a
 * declared nominal figure (a "1 Gbps" VM measured 50–106 Mbit/s). Streams uses it for the fits, the store (as SQL)
 * and the query API for the run page, from this one definition.
 */
public final class EgressMeasurement {

    public static final String METRIC = MetricNames.NET_THROUGHPUT_MBPS;
    public static final String SCOPE = LabelNames.SCOPE;
    public static final String SCOPE_TEST = "test";
    public static final String SIDE = LabelNames.SIDE;
    public static final String SIDE_SENDER = "sender";
    /** The tool named where the ceiling is shown to come from. */
    public static final String TOOL = "iperf3";

    private EgressMeasurement() {
    }

    /** True when a sample of {@code metric} with {@code labels} is a measured egress ceiling in Mbit/s. */
    public static boolean isCeiling(CharSequence metric, Map<? extends CharSequence, ? extends CharSequence> labels) {
        return METRIC.contentEquals(metric) && matches(labels, SCOPE, SCOPE_TEST) && matches(labels, SIDE, SIDE_SENDER);
    }

    private static boolean matches(Map<? extends CharSequence, ? extends CharSequence> labels, String key,
            String value) {
        for (Map.Entry<? extends CharSequence, ? extends CharSequence> e : labels.entrySet()) {
            if (key.contentEquals(e.getKey())) {
                return value.contentEquals(e.getValue());
            }
        }
        return false;
    }
}
