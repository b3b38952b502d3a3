package dev.caplab.analysis.capacity;

/** How a workload profile sits on a tier. */
public enum ProfileFit {
    /** Within the safe load (C·margin) of every resource. */
    FITTING,
    /** Beyond the margin but under the full ceiling of every resource: works, without headroom. */
    TIGHT,
    /** Beyond a full ceiling, or beyond a measured cliff. */
    UNREACHABLE
}
