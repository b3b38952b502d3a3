package dev.caplab.ingest.influx;

import java.util.Locale;

/** The {@code precision} parameter of InfluxDB 1.x {@code /write}: the unit of line timestamps. */
public enum TimestampPrecision {
    NANOSECONDS(-1_000), MICROSECONDS(1), MILLISECONDS(1_000), SECONDS(1_000_000), MINUTES(60_000_000L),
    HOURS(3_600_000_000L);

    /** Microseconds per unit; negative means "divide by" (nanoseconds are finer than the schema's micros). */
    private final long microsFactor;

    TimestampPrecision(long microsFactor) {
        this.microsFactor = microsFactor;
    }

    /** The timestamp in epoch microseconds; throws ArithmeticException when it does not fit. */
    public long toEpochMicros(long value) {
        return microsFactor < 0 ? Math.floorDiv(value, -microsFactor) : Math.multiplyExact(value, microsFactor);
    }

    /** Parses the parameter as InfluxDB 1.x does; absent means nanoseconds. */
    public static TimestampPrecision fromParameter(String value) {
        if (value == null || value.isEmpty()) {
            return NANOSECONDS;
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "n", "ns" -> NANOSECONDS;
            case "u", "us", "µ", "µs" -> MICROSECONDS;
            case "ms" -> MILLISECONDS;
            case "s" -> SECONDS;
            case "m" -> MINUTES;
            case "h" -> HOURS;
            default -> throw new IllegalArgumentException(
                    "precision must be one of n, u, ms, s, m, h; was '" + value + "'");
        };
    }
}
