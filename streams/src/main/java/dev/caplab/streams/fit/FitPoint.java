package dev.caplab.streams.fit;

import java.util.Objects;

/** The sustained value {@code y} of one resource series in one finished, uncontaminated step at load {@code x}. */
public record FitPoint(String source, String metric, int stepIndex, double x, double y, long count) {

    public FitPoint {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(metric, "metric");
    }

    /** The series this point belongs to. */
    public String resourceKey() {
        return source + '|' + metric;
    }
}
