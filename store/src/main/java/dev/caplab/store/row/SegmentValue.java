package dev.caplab.store.row;

/**
 * One linear piece {@code y = intercept + slope·x} on [fromX, toX] of a fit (Avro {@code Segment}); an element of
 * {@code capacity_fits.segments}.
 */
public record SegmentValue(double fromX, double toX, double intercept, double slope, Double slopeStdErr) {
}
