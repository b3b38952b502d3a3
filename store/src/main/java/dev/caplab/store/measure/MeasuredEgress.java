package dev.caplab.store.measure;

import dev.caplab.schema.vocabulary.EgressMeasurement;
import java.time.Instant;
import java.util.Objects;

/** An egress ceiling iperf3 measured ({@link EgressMeasurement}): {@code mbps} Mbit/s, measured at {@code at}. */
public record MeasuredEgress(double mbps, Instant at) {

    public MeasuredEgress {
        Objects.requireNonNull(at, "at");
    }
}
