package dev.caplab.query.report;

import dev.caplab.query.fits.FitView;
import java.util.List;

/**
 * A fitted resource beside what each step used of it: the fit (segments, knee with its interval, ceiling, margin)
 * and each step's sustained value of the same source and metric at the step's x.
 */
public record ResourceUse(FitView fit, List<Point> points) {

    public ResourceUse {
        points = List.copyOf(points);
    }

    /** One step's sustained use; {@code passed} is null while the step has no verdict. */
    public record Point(int stepIndex, double x, double sustained, Boolean passed, boolean contaminated) {
    }
}
