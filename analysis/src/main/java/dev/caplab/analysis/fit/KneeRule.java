package dev.caplab.analysis.fit;

import dev.caplab.analysis.Finite;
import dev.caplab.schema.event.Breakpoint;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * When a fitted breakpoint is a knee: Davies' test says a break exists (p &lt; {@value #ALPHA}, Davies 2002), every
 * breakpoint's 95 % interval lies within the tested loads (a break the data cannot place inside them is no finding),
 * and the slope bends the way that matters ({@link Bend}): for a resource it increases at every break (a capacity knee
 * is where the resource starts to cost more per unit of load; growth that merely slows below the ceiling, such as
 * amortised overhead or a warmed cache, is no knee), unless the break sits at the resource's ceiling (at least
 * {@link #SATURATION_SHARE} of it): then the flattening is the resource running out, the knee that matters most. For
 * a request rate it decreases (the rate stops growing). Otherwise the answer is "no knee within the tested range".
 */
public final class KneeRule {

    /** Significance level of Davies' test. */
    public static final double ALPHA = 0.05;
    /** Share of the ceiling at which a flattening break is the resource saturating, not slower growth. */
    public static final double SATURATION_SHARE = 0.9;
    /** What is said when no knee stands. */
    public static final String NO_KNEE = "no knee within the tested range";

    private KneeRule() {
    }

    /** Which way the slope must turn at a knee. */
    public enum Bend {
        /** A resource: it costs more per unit of load after the knee. */
        STEEPER,
        /** A request rate: it grows less (or falls) after the knee. */
        FLATTER
    }

    /**
     * Why the breakpoints of {@code model} are not knees bending as {@code bend} on {@code s} with Davies' p-value
     * {@code daviesP} (NaN when it could not run); empty when every one stands, and for a model without breakpoints.
     */
    public static Optional<String> rejection(ModelFit model, double daviesP, StepSeries s, Bend bend) {
        return rejection(model, daviesP, s, bend, OptionalDouble.empty());
    }

    /**
     * As {@link #rejection(ModelFit, double, StepSeries, Bend)}, where a resource's break that flattens at or above
     * {@link #SATURATION_SHARE} of {@code ceiling} stands: the resource saturated there.
     */
    public static Optional<String> rejection(ModelFit model, double daviesP, StepSeries s, Bend bend,
            OptionalDouble ceiling) {
        if (model.breakpoints().isEmpty()) {
            return Optional.empty();
        }
        if (!(daviesP < ALPHA)) {
            return Optional.of(Double.isNaN(daviesP) ? NO_KNEE + ": too few steps (< 5) to test a break"
                    : String.format(Locale.ROOT, "%s: break p = %.3g, not below %.2f (Davies' test)", NO_KNEE,
                    daviesP, ALPHA));
        }
        double lo = s.x(0);
        double hi = s.x(s.size() - 1);
        for (int j = 0; j < model.breakpoints().size(); j++) {
            Breakpoint b = model.breakpoints().get(j);
            double lower = Finite.orNaN(b.getLower95()), upper = Finite.orNaN(b.getUpper95());
            if (lower < lo || upper > hi) {
                return Optional.of(String.format(Locale.ROOT,
                        "%s: the break at %.4g has a 95 %% interval %.4g..%.4g beyond the tested loads %.4g..%.4g",
                        NO_KNEE, b.getX(), lower, upper, lo, hi));
            }
            double before = model.segments().get(j).getSlope();
            double after = model.segments().get(j + 1).getSlope();
            boolean saturated = ceiling.isPresent()
                    && Pieces.valueAt(model.segments().get(j), b.getX()) >= SATURATION_SHARE * ceiling.getAsDouble();
            if (bend == Bend.STEEPER && !(after > before) && !saturated) {
                return Optional.of(String.format(Locale.ROOT,
                        "%s: growth slows at %.4g (slope %.4g then %.4g), a saturation, not a knee", NO_KNEE, b.getX(),
                        before, after));
            }
            if (bend == Bend.FLATTER && !(after < before)) {
                return Optional.of(String.format(Locale.ROOT,
                        "%s: the rate grows faster after %.4g (slope %.4g then %.4g), no limit", NO_KNEE, b.getX(),
                        before, after));
            }
        }
        return Optional.empty();
    }
}
