package dev.caplab.analysis;

import dev.caplab.analysis.capacity.CapacityEstimate;
import dev.caplab.analysis.capacity.CapacityModel;
import dev.caplab.analysis.cliff.CliffDetection;
import dev.caplab.analysis.cliff.CliffDetector;
import dev.caplab.analysis.fit.ExistenceTest;
import dev.caplab.analysis.fit.KneeRule;
import dev.caplab.schema.vocabulary.MetricNames;
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
     * (Schwarz 1978), tests breakpoint existence (Davies 2002), keeps a breakpoint only where it is a knee
     * ({@link KneeRule}: significant, its interval inside the tested loads, the slope rising), detects a cliff, fits the pre-knee
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
        double existenceP = selection.existence().map(ExistenceTest::pValue).orElse(Double.NaN);
        KneeRule.Bend bend = bendOf(options.resource());
        Optional<String> noKnee = KneeRule.rejection(selection.chosen(), existenceP, s, bend, options.ceiling());
        ModelFit chosen = standing(s, selection.chosen(), existenceP, bend, options.ceiling());
        CliffDetection cliff = CliffDetector.detect(s, chosen, Double.isNaN(existenceP) ? 1.0 : existenceP,
                options.cliff());
        int preKneeSteps = preKneeSteps(s, chosen, cliff);
        LinearFit preKnee = LinearModel.fitLine(s.head(preKneeSteps));
        Optional<CapacityEstimate> capacity = options.ceiling().isPresent()
                ? Optional.of(CapacityModel.estimate(options.resource(), preKnee, options.ceiling().getAsDouble(),
                        options.margin(), cliff.cliff() ? OptionalDouble.of(cliff.lastStableX()) : OptionalDouble.empty()))
                : Optional.empty();
        return new ResourceFit(ResourceFit.MODEL_NAME, ResourceFit.MODEL_VERSION, options.resource(), s.size(), chosen,
                selection.candidates(), selection.existence(), preKnee, preKneeSteps, cliff, capacity, noKnee);
    }

    /**
     * {@code chosen} when its breakpoints are knees ({@link KneeRule}), else the best model with fewer breakpoints
     * whose breakpoints are (in the end the line): a break that does not stand is neither reported nor drawn.
     */
    private static ModelFit standing(StepSeries s, ModelFit chosen, double existenceP, KneeRule.Bend bend,
            OptionalDouble ceiling) {
        ModelFit m = chosen;
        while (!m.breakpoints().isEmpty() && KneeRule.rejection(m, existenceP, s, bend, ceiling).isPresent()) {
            m = ModelSelection.select(s, m.breakpoints().size() - 1).chosen();
        }
        return m;
    }

    /** The request rate's knee is where it stops growing ({@code ThroughputLimits}); a resource's, where it grows faster. */
    private static KneeRule.Bend bendOf(String resource) {
        return MetricNames.THROUGHPUT_REQUESTS_PER_S.equals(resource) ? KneeRule.Bend.FLATTER : KneeRule.Bend.STEEPER;
    }

    /** Steps before the cliff; else steps up to the first breakpoint; else all steps (never fewer than 2). */
    private static int preKneeSteps(StepSeries s, ModelFit chosen, CliffDetection cliff) {
        if (cliff.cliff()) {
            return Math.max(2, cliff.cliffPosition());
        }
        if (!chosen.breakpoints().isEmpty()) {
            double psi = chosen.breakpoints().getFirst().getX();
            int k = 0;
            while (k < s.size() && s.x(k) <= psi) {
                k++;
            }
            return Math.max(2, k);
        }
        return s.size();
    }
}
