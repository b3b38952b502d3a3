package dev.caplab.ingest.remotewrite;

/** The text of an {@code le} label: "+Inf", an integral bound without a fraction ("1", "1024"), else Java's shortest decimal. */
final class LeLabel {

    private LeLabel() {
    }

    static String format(double upperBound) {
        if (Double.isInfinite(upperBound)) {
            return upperBound > 0 ? "+Inf" : "-Inf";
        }
        if (upperBound == Math.rint(upperBound) && Math.abs(upperBound) < 1e15) {
            return Long.toString((long) upperBound);
        }
        return Double.toString(upperBound);
    }
}
