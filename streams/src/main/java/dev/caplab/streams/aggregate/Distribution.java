package dev.caplab.streams.aggregate;

import com.tdunning.math.stats.MergingDigest;
import com.tdunning.math.stats.TDigest;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Order statistics of a list of values. Quantiles come from a t-digest (Dunning and Ertl 2019): mergeable across
 * steps and sources, accurate in the tails we report (p95, p99), and unit-agnostic, unlike HdrHistogram which needs
 * an integer value range fixed up front (our metrics span 0.01 cores to 10⁹ bytes). Sustained medians are exact.
 */
public final class Distribution {

    /** Quantiles reported for gauges and counter rates, keyed as the schema wants ("0.95"). */
    public static final List<Double> QUANTILES = List.of(0.5, 0.9, 0.95, 0.99);
    private static final double COMPRESSION = 100;

    private Distribution() {
    }

    public static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] s = values.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /** Mean after dropping floor(n·fraction) values from each tail. */
    public static double trimmedMean(double[] values, double fraction) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] s = values.clone();
        Arrays.sort(s);
        int cut = (int) Math.floor(s.length * fraction);
        double sum = 0;
        for (int i = cut; i < s.length - cut; i++) {
            sum += s[i];
        }
        return sum / (s.length - 2 * cut);
    }

    public static double sustained(double[] values, SustainedStatistic statistic, double trimFraction) {
        return statistic == SustainedStatistic.MEDIAN ? median(values) : trimmedMean(values, trimFraction);
    }

    public static Map<String, Double> quantiles(double[] values) {
        Map<String, Double> out = new LinkedHashMap<>();
        if (values.length == 0) {
            return out;
        }
        TDigest digest = new MergingDigest(COMPRESSION);
        for (double v : values) {
            digest.add(v);
        }
        for (double q : QUANTILES) {
            out.put(Double.toString(q), digest.quantile(q));
        }
        return out;
    }

    public static double max(double[] values) {
        return Arrays.stream(values).max().orElse(Double.NaN);
    }

    public static double min(double[] values) {
        return Arrays.stream(values).min().orElse(Double.NaN);
    }
}
