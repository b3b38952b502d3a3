package dev.caplab.ingest.adapter;

import java.math.BigDecimal;

/**
 * The one spelling of quantile keys in {@code SummaryStats.quantiles}: a decimal in [0,1] without trailing zeros,
 * e.g. "0.5", "0.999", "1". Locust's "99.9%", JMeter's "pct90.0" and Prometheus' quantile="0.99" all map here.
 */
public final class QuantileKeys {

    private QuantileKeys() {
    }

    /** "95", "99.9", "100" → "0.95", "0.999", "1". */
    public static String fromPercent(String percent) {
        return normalise(new BigDecimal(percent.strip()).movePointLeft(2), percent);
    }

    /** "0.990" → "0.99". */
    public static String fromFraction(String fraction) {
        return normalise(new BigDecimal(fraction.strip()), fraction);
    }

    private static String normalise(BigDecimal q, String original) {
        if (q.signum() < 0 || q.compareTo(BigDecimal.ONE) > 0) {
            throw new NumberFormatException("quantile outside [0,1]: " + original);
        }
        return q.signum() == 0 ? "0" : q.stripTrailingZeros().toPlainString();
    }
}
