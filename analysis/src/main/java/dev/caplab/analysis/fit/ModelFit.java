package dev.caplab.analysis.fit;

import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.Segment;
import java.util.List;
import java.util.Objects;

/**
 * A fitted continuous piecewise-linear model (a line is the zero-breakpoint case), traceable by
 * {@code modelName} and {@code modelVersion}.
 *
 * <p>{@code bic} is −2·logLik + (p+1)·ln n with the Gaussian log-likelihood of a weighted linear
 * model, exactly as R's {@code BIC(lm)} computes it (the +1 counts σ), so values compare with R.
 */
public record ModelFit(String modelName, String modelVersion, List<Segment> segments, List<Breakpoint> breakpoints,
                       double rSquared, double bic, ResidualStats residuals, int parameterCount, int stepCount) {
    public ModelFit {
        Objects.requireNonNull(modelName, "modelName");
        Objects.requireNonNull(modelVersion, "modelVersion");
        segments = List.copyOf(segments);
        breakpoints = List.copyOf(breakpoints);
        Objects.requireNonNull(residuals, "residuals");
        if (segments.size() != breakpoints.size() + 1) {
            throw new IllegalArgumentException(modelName + ": " + segments.size() + " segments for "
                    + breakpoints.size() + " breakpoints");
        }
    }

    /** Fitted y at load {@code x}: the segment whose range holds x (outer segments extend beyond the data). */
    public double predict(double x) {
        for (int i = 0; i < breakpoints.size(); i++) {
            if (x <= breakpoints.get(i).getX()) {
                return Pieces.valueAt(segments.get(i), x);
            }
        }
        return Pieces.valueAt(segments.getLast(), x);
    }

    /** The segment before the first breakpoint (the whole line for a linear model). */
    public Segment firstSegment() {
        return segments.getFirst();
    }
}
