package dev.caplab.analysis.throughput;

/**
 * How much a counter (a total since its tool started) grew over consecutive reports, and its mean rate: a report
 * lower than the one before is a restart from zero, so it adds its whole value. The one rule every reader of a
 * request or failure counter applies (a step's total row in streams, an endpoint's row in the query API).
 */
public final class CounterIncrease {

    private CounterIncrease() {
    }

    /** The increase over {@code values}, reports in time order; 0 for fewer than two. */
    public static double increase(double[] values) {
        double increase = 0;
        for (int i = 1; i < values.length; i++) {
            double a = values[i - 1];
            double b = values[i];
            increase += b >= a ? b - a : b;
        }
        return increase;
    }

    /**
     * The total a counter reached since its tool started: its first report plus the {@link #increase} after it (a
     * counter that restarted keeps what it had counted before).
     */
    public static double total(double[] values) {
        return values.length == 0 ? 0 : values[0] + increase(values);
    }

    /**
     * The mean rate per second between the first and the last report: {@link #increase} over the microseconds
     * between them; null with fewer than two reports or no time between them.
     */
    public static Double perSecond(long[] micros, double[] values) {
        if (values.length < 2) {
            return null;
        }
        long dt = micros[micros.length - 1] - micros[0];
        return dt <= 0 ? null : increase(values) * 1e6 / dt;
    }
}
