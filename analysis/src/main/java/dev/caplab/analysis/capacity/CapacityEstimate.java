package dev.caplab.analysis.capacity;

import java.util.Objects;

/**
 * Safe load for one resource on one node: x_max = (C·margin − base)/slope with its delta-method SE,
 * the load that would use the whole ceiling, and the load actually recommended once a cliff is
 * taken into account ({@code safeX} never exceeds the last stable step when a cliff was seen).
 *
 * @param xMax           (C·margin − base)/slope; +∞ when the resource does not grow with load
 * @param xAtFullCeiling (C − base)/slope
 * @param cappedByCliff  x_max lay at or beyond the cliff, so safeX is the last stable step instead
 */
public record CapacityEstimate(String resource, double ceiling, double margin, double xMax, double xMaxStdErr,
                               double xAtFullCeiling, boolean cappedByCliff, double safeX) {
    public CapacityEstimate {
        Objects.requireNonNull(resource, "resource");
        if (!(ceiling > 0)) {
            throw new IllegalArgumentException(resource + ": ceiling must be > 0, got " + ceiling);
        }
        if (!(margin > 0 && margin <= 1)) {
            throw new IllegalArgumentException(resource + ": margin must be in (0,1], got " + margin);
        }
    }

    /** Whether even zero load leaves no room under C·margin (base ≥ C·margin). */
    public boolean unreachable() {
        return xMax <= 0;
    }
}
