package dev.caplab.analysis.fit;

import dev.caplab.analysis.InsufficientDataException;
import dev.caplab.schema.event.Segment;
import java.util.List;

/** The zero-breakpoint candidate: weighted ordinary least squares y = b₀ + b₁x. */
public final class LinearModel implements PiecewiseLinearModel {
    public static final String NAME = "linear";
    public static final String VERSION = "1";

    @Override
    public String modelName() {
        return NAME;
    }

    @Override
    public int breakpointCount() {
        return 0;
    }

    /** A line needs three steps to leave one residual degree of freedom. */
    @Override
    public int minimumSteps() {
        return 3;
    }

    /**
     * Weighted least squares b₁ = Σw(x−x̄)(y−ȳ)/Σw(x−x̄)², b₀ = ȳ − b₁x̄, Var b₁ = σ̂²/Sxx,
     * Var b₀ = σ̂²(1/Σw + x̄²/Sxx), Cov = −x̄σ̂²/Sxx, σ̂² = RSS/(n−2) (Draper &amp; Smith §1.4).
     * Two steps are accepted (exact line, no intervals).
     */
    public static LinearFit fitLine(StepSeries s) {
        int n = s.size();
        if (n < 2) {
            throw new InsufficientDataException("linear fit: steps", n, 2);
        }
        double sw = 0, swx = 0, swy = 0;
        for (int i = 0; i < n; i++) {
            sw += s.weight(i);
            swx += s.weight(i) * s.x(i);
            swy += s.weight(i) * s.y(i);
        }
        double xm = swx / sw, ym = swy / sw, sxx = 0, sxy = 0;
        for (int i = 0; i < n; i++) {
            double dx = s.x(i) - xm;
            sxx += s.weight(i) * dx * dx;
            sxy += s.weight(i) * dx * (s.y(i) - ym);
        }
        if (sxx == 0) {
            throw new InsufficientDataException("linear fit: distinct loads", 1, 2);
        }
        double slope = sxy / sxx, base = ym - slope * xm, rss = 0;
        for (int i = 0; i < n; i++) {
            double r = s.y(i) - base - slope * s.x(i);
            rss += s.weight(i) * r * r;
        }
        int dof = n - 2;
        double s2 = dof > 0 ? rss / dof : Double.NaN;
        double r2 = FitStatistics.rSquared(s.ys(), s.weights(), rss);
        return new LinearFit(base, slope, s2 * (1 / sw + xm * xm / sxx), s2 / sxx, -xm * s2 / sxx,
                Math.sqrt(s2), dof, n, r2);
    }

    @Override
    public ModelFit fit(StepSeries s) {
        if (s.size() < minimumSteps()) {
            throw new InsufficientDataException(NAME + ": steps", s.size(), minimumSteps());
        }
        LinearFit line = fitLine(s);
        double[] fitted = new double[s.size()];
        for (int i = 0; i < fitted.length; i++) {
            fitted[i] = line.predict(s.x(i));
        }
        Segment only = Pieces.line(line, s.x(0), s.x(s.size() - 1));
        ResidualStats res = FitStatistics.residuals(s.ys(), fitted, s.weights(), 2);
        double bic = FitStatistics.bic(s.ys(), s.weights(), res.rss(), 2);
        return new ModelFit(NAME, VERSION, List.of(only), List.of(), line.rSquared(), bic, res, 2, s.size());
    }
}
