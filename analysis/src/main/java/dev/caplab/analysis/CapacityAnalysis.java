package dev.caplab.analysis;

import dev.caplab.analysis.capacity.CapacityEstimate;
import dev.caplab.analysis.capacity.CapacityModel;
import dev.caplab.analysis.cliff.CliffDetection;
import dev.caplab.analysis.cliff.CliffDetector;
import dev.caplab.analysis.fit.ExistenceTest;
import dev.caplab.analysis.fit.LinearFit;
import dev.caplab.analysis.fit.LinearModel;
import dev.caplab.analysis.fit.ModelFit;
import dev.caplab.analysis.fit.ModelSelection;
import dev.caplab.analysis.fit.SelectionResult;
import dev.caplab.analysis.fit.StepPoint;
import dev.caplab.analysis.fit.StepSeries;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/** The one call the streams topology and the query API make per resource: points in, {@link ResourceFit} out. */
public final class CapacityAnalysis {
    private CapacityAnalysis() {
    }

    /**
     * Collapses {@code points} to per-step sustained values, selects linear / segmented by BIC
     * (Schwarz 1978), tests breakpoint existence (Davies 2002), detects a cliff, fits the pre-knee
     * line y = base + slope·x and, with a ceiling, computes x_max = (C·margin − base)/slope.
     * Needs at least 3 steps; segmented candidates need 6 (one breakpoint) or 8 (two).
     *
     * @throws InsufficientDataException with fewer than 3 distinct steps
     */
    public static ResourceFit fitResource(List<StepPoint> points, FitOptions options) {
        StepSeries s = StepSeries.collapse(points, options.weighting());
        if (s.size() < 3) {
            throw new InsufficientDataException(options.resource() + ": steps", s.size(), 3);
        }
        SelectionResult selection = ModelSelection.select(s, options.maxBreakpoints());
        ModelFit chosen = selection.chosen();
        double existenceP = selection.existence().map(ExistenceTest::pValue).orElse(1.0);
        CliffDetection cliff = CliffDetector.detect(s, chosen, existenceP, options.cliff());
        int preKneeSteps = preKneeSteps(s, chosen, cliff);
        LinearFit preKnee = LinearModel.fitLine(s.head(preKneeSteps));
        Optional<CapacityEstimate> capacity = options.ceiling().isPresent()
                ? Optional.of(CapacityModel.estimate(options.resource(), preKnee, options.ceiling().getAsDouble(),
                        options.margin(), cliff.cliff() ? OptionalDouble.of(cliff.lastStableX()) : OptionalDouble.empty()))
                : Optional.empty();
        return new ResourceFit(ResourceFit.MODEL_NAME, ResourceFit.MODEL_VERSION, options.resource(), s.size(), chosen,
                selection.candidates(), selection.existence(), preKnee, preKneeSteps, cliff, capacity);
    }

    /** Steps before the cliff; else steps up to the first breakpoint; else all steps (never fewer than 2). */
    private static int preKneeSteps(StepSeries s, ModelFit chosen, CliffDetection cliff) {
        if (cliff.cliff()) {
            return Math.max(2, cliff.cliffPosition());
        }
        if (!chosen.breakpoints().isEmpty()) {
            double psi = chosen.breakpoints().getFirst().x();
            int k = 0;
            while (k < s.size() && s.x(k) <= psi) {
                k++;
            }
            return Math.max(2, k);
        }
        return s.size();
    }
}
