package dev.caplab.analysis.conclusion;

import java.util.Objects;

/** The sustained use of one resource series in one step and the node's ceiling C for it, in the same unit. */
public record ResourceUse(String source, String metric, double used, double ceiling) {

    public ResourceUse {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(metric, "metric");
        if (!(ceiling > 0)) {
            throw new IllegalArgumentException(metric + "@" + source + ": ceiling must be > 0, got " + ceiling);
        }
    }

    /** used / C. */
    public double utilisation() {
        return used / ceiling;
    }
}
