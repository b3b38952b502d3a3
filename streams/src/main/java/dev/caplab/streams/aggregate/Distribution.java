package dev.caplab.streams.aggregate;

import dev.caplab.analysis.throughput.WindowPercentiles;
import java.util.Arrays;
import java.util.List;

/**
 * Order statistics of a list of per-second values (exact medians and trimmed means); reported quantiles come from
 * {@link QuantileSketch}.
 */
public final class Distribution {

    /** Quantiles reported for gauges and counter rates, keyed as the schema wants ("0.95"). */
    public static final List<Double> QUANTILES = List.of(0.5, 0.9, 0.95, 0.99);

    private Distribution() {
    }

    public static double median(double[] values) {
        return WindowPercentiles.median(values);
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

    public static double max(double[] values) {
        return Arrays.stream(values).max().orElse(Double.NaN);
    }

    public static double min(double[] values) {
        return Arrays.stream(values).min().orElse(Double.NaN);
    }
}
