package dev.caplab.query.conclusion;

/** A warning of the run conclusion (analysis {@code RunWarning}): its kind and what a person should know and do. */
public record WarningView(String kind, String message) {
}
