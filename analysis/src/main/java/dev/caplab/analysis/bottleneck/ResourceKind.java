package dev.caplab.analysis.bottleneck;

/** Kinds of ceilings and the utilisation at which each counts as reached (EP19 §2.2). */
public enum ResourceKind {
    /** "Only when CPU climbs past 90 % … are you genuinely CPU-bound." */
    CPU(0.90),
    /** Memory near its limit: 95 % of the limit in use. */
    MEMORY(0.95),
    /** Egress at 90 % of its <em>measured</em> ceiling (iperf3), never the nominal one. */
    EGRESS(0.90);

    private final double defaultThreshold;

    ResourceKind(double defaultThreshold) {
        this.defaultThreshold = defaultThreshold;
    }

    public double defaultThreshold() {
        return defaultThreshold;
    }
}
