package dev.caplab.streams;

import java.time.Instant;

/** Conversions between Avro timestamp-micros ({@link Instant}) and the epoch microseconds the topology computes in. */
public final class Micros {

    private Micros() {
    }

    public static long of(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
    }

    public static Instant toInstant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }
}
