package dev.caplab.query.report;

import dev.caplab.query.fits.FitView;
import java.util.List;

/**
 * A fitted resource beside what each step used of it: the fit (segments, knee with its interval, ceiling, margin)
 * and each step's sustained value of the same source and metric at the step's x.
 */
public record FittedResource(FitView fit, List<Point> points) {

    public FittedResource {
        points = List.copyOf(points);
    }

    /**
     * One step's sustained use; {@code passed} is null while the step has no verdict, or when no rule judged it
     * ({@code judged} false).
     */
    public record Point(int stepIndex, double x, double sustained, Boolean passed, boolean contaminated,
                        boolean judged) {

        /** A point of a step judged against rules (or not judged yet). */
        public Point(int stepIndex, double x, double sustained, Boolean passed, boolean contaminated) {
            this(stepIndex, x, sustained, passed, contaminated, true);
        }

        /** What the step's verdict says, as a step's verdict column does ({@link RunSection#verdict}). */
        public String verdict() {
            return RunSection.verdict(contaminated, judged, passed);
        }
    }
}
