package dev.caplab.store.row;

/**
 * A fit's breakpoint with its standard error and 95 % interval (Avro {@code Breakpoint}); an element of
 * {@code capacity_fits.breakpoints}.
 */
public record BreakpointValue(double x, Double stdErr, Double lower95, Double upper95) {
}
