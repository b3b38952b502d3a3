package dev.caplab.store.row;

/**
 * One linear piece {@code y = intercept + slope·x} on [fromX, toX] of a fit (Avro {@code Segment}); an element of
 * {@code capacity_fits.segments}. The event's {@code interceptStdErr}, {@code slopeLower95} and {@code slopeUpper95}
 * are left out: the API serves a piece with its slope's standard error and the page and report draw its line, so no
 * reader of the store needs them ({@code caplab fit} prints them from the fit itself).
 */
public record SegmentValue(double fromX, double toX, double intercept, double slope, Double slopeStdErr) {
}
