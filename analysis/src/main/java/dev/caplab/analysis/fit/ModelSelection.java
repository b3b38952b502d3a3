package dev.caplab.analysis.fit;

import dev.caplab.analysis.FitFailedException;
import dev.caplab.analysis.InsufficientDataException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Fits linear, 1- and 2-breakpoint segmented models and keeps the one with the smallest BIC
 * (Schwarz 1978); a segmented model needs p + 2 steps (6 for one breakpoint, 8 for two).
 * A model with more breakpoints replaces a simpler one only when it lowers BIC by more than
 * {@value #MIN_BIC_IMPROVEMENT}: below that the evidence is "not worth more than a bare mention"
 * (Kass &amp; Raftery 1995, JASA 90:773, table p. 777), and the sup over breakpoint positions makes
 * small BIC gains common in pure noise.
 */
public final class ModelSelection {
    private static final List<PiecewiseLinearModel> DEFAULT =
            List.of(new LinearModel(), new SegmentedModel(1), new SegmentedModel(2));

    public static final double MIN_BIC_IMPROVEMENT = 2.0;

    private ModelSelection() {
    }

    /** Selects among linear, segmented-1 and segmented-2 up to {@code maxBreakpoints}. */
    public static SelectionResult select(StepSeries s, int maxBreakpoints) {
        List<PiecewiseLinearModel> models = DEFAULT.stream().filter(m -> m.breakpointCount() <= maxBreakpoints).toList();
        return select(s, models);
    }

    /** Selects by minimum BIC among {@code models}; the linear model must be fittable (3 steps). */
    public static SelectionResult select(StepSeries s, List<PiecewiseLinearModel> models) {
        List<CandidateScore> scores = new ArrayList<>();
        ModelFit best = null;
        for (PiecewiseLinearModel m : models) {
            if (!m.eligible(s)) {
                scores.add(new CandidateScore(m.modelName(), CandidateScore.Status.TOO_FEW_STEPS, Double.NaN,
                        s.size() + " steps, needs " + m.minimumSteps()));
                continue;
            }
            try {
                ModelFit f = m.fit(s);
                scores.add(new CandidateScore(m.modelName(), CandidateScore.Status.FITTED, f.bic(), ""));
                if (best == null || f.bic() < best.bic() - (f.breakpoints().size() > best.breakpoints().size()
                        ? MIN_BIC_IMPROVEMENT : 0)) {
                    best = f;
                }
            } catch (FitFailedException e) {
                // A segmented fit that cannot identify its breakpoint is evidence against that model,
                // not an error of the analysis: record it and let the others compete.
                scores.add(new CandidateScore(m.modelName(), CandidateScore.Status.FIT_FAILED, Double.NaN,
                        e.getMessage()));
            }
        }
        if (best == null) {
            throw new InsufficientDataException("model selection: steps", s.size(), 3);
        }
        Optional<ExistenceTest> existence = s.size() >= 5 ? Optional.of(DaviesTest.test(s)) : Optional.empty();
        return new SelectionResult(best, scores, existence);
    }
}
