package dev.caplab.streams.aggregate;

/** A value at an event time in microseconds. */
public record TimedValue(long timestampMicros, double value) {
}
