package dev.caplab.analysis.capacity;

/** A planned workload expressed in the fit's load unit (the x of the fit, e.g. subscriptions). */
public interface WorkloadProfile {
    /** Human name of the profile, e.g. "large meeting". */
    String name();

    /** The load this profile puts on a node, in the fit's x unit. */
    double load();
}
