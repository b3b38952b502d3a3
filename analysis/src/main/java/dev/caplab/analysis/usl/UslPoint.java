package dev.caplab.analysis.usl;

/** Throughput measured at a concurrency level. */
public record UslPoint(double concurrency, double throughput) {
    public UslPoint {
        if (!(concurrency > 0) || !Double.isFinite(throughput) || throughput < 0) {
            throw new IllegalArgumentException("USL point needs concurrency > 0 and throughput >= 0, got "
                    + concurrency + ", " + throughput);
        }
    }
}
