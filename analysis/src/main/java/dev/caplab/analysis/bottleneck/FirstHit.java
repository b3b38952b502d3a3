package dev.caplab.analysis.bottleneck;

import java.util.Objects;

/** The resource that reached its ceiling first, at which step and load, and how full it was. */
public record FirstHit(String resource, ResourceKind kind, int stepIndex, double load, double utilisation) {
    public FirstHit {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(kind, "kind");
    }
}
