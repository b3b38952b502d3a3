package dev.caplab.schema.vocabulary;

import java.util.Set;

/**
 * Names of the per-step statistics an SLO rule can judge ({@code p95(http.req.duration.ms) <= 500}) and the keys of
 * the quantile maps they come from: a QUANTILE sample and a step aggregate key quantiles by the fraction as written
 * ({@code "0.95"}), a rule names the percentile ({@code p95}).
 */
public final class Statistics {

    public static final String SUSTAINED = "sustained";
    public static final String PEAK = "peak";
    public static final String MEAN = "mean";
    public static final String MIN = "min";
    public static final String MAX = "max";
    public static final String RATE = "rate";
    public static final String LAST = "last";
    public static final String P50 = "p50";
    public static final String P90 = "p90";
    public static final String P95 = "p95";
    public static final String P99 = "p99";

    /** Every statistic a rule may name; see the SloRule schema. */
    public static final Set<String> ALL = Set.of(SUSTAINED, PEAK, MEAN, MIN, MAX, P50, P90, P95, P99, RATE, LAST);

    /** Quantile map keys of the percentiles above. */
    public static final String Q50 = "0.5";
    public static final String Q90 = "0.9";
    public static final String Q95 = "0.95";
    public static final String Q99 = "0.99";

    private Statistics() {
    }

    /** The percentile statistic of a quantile key: "0.95" → "p95", "0.5" → "p50", "0.999" → "p99.9". */
    public static String percentileName(String quantileKey) {
        double percent = Double.parseDouble(quantileKey) * 100;
        long whole = Math.round(percent);
        return Math.abs(percent - whole) < 1e-9 ? "p" + whole : "p" + percent;
    }
}
