package dev.caplab.ingest.influx;

import java.time.Instant;
import java.util.Locale;

/** The {@code precision} parameter of InfluxDB 1.x {@code /write}: the unit of line timestamps. */
public enum TimestampPrecision {
    NANOSECONDS(-1_000, "ns"), MICROSECONDS(1, "u"), MILLISECONDS(1_000, "ms"), SECONDS(1_000_000, "s"),
    MINUTES(60_000_000L, "m"), HOURS(3_600_000_000L, "h");

    /** Microseconds per unit; negative means "divide by" (nanoseconds are finer than the schema's micros). */
    private final long microsFactor;
    private final String parameter;

    TimestampPrecision(long microsFactor, String parameter) {
        this.microsFactor = microsFactor;
        this.parameter = parameter;
    }

    /** The {@code precision} parameter value naming this unit. */
    public String parameter() {
        return parameter;
    }

    /** The timestamp as an instant truncated to microseconds, or null when it does not fit a long of micros. */
    public Instant toInstant(long value) {
        long micros;
        try {
            micros = toEpochMicros(value);
        } catch (ArithmeticException e) {
            return null;
        }
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
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
