package dev.caplab.analysis.bottleneck;

import java.util.Objects;

/** A resource's ceiling on a node, in the unit its usage is reported in, and the utilisation that counts as hitting it. */
public record ResourceCeiling(String resource, ResourceKind kind, double ceiling, double threshold) {
    public ResourceCeiling {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(kind, "kind");
        if (!(ceiling > 0)) {
            throw new IllegalArgumentException(resource + ": ceiling must be > 0, got " + ceiling);
        }
        if (!(threshold > 0 && threshold <= 1)) {
            throw new IllegalArgumentException(resource + ": threshold must be in (0,1], got " + threshold);
        }
    }

    /** A ceiling with its kind's default threshold. */
    public static ResourceCeiling of(String resource, ResourceKind kind, double ceiling) {
        return new ResourceCeiling(resource, kind, ceiling, kind.defaultThreshold());
    }
}
