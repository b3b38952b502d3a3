package dev.caplab.analysis.cliff;

import dev.caplab.analysis.fit.LinearFit;
import dev.caplab.analysis.fit.LinearModel;
import dev.caplab.analysis.fit.ModelFit;
import dev.caplab.analysis.fit.StepSeries;
import java.util.Optional;

/**
 * Finds the first step where the resource stops following its earlier line — "degradation is a
 * cliff, not a slope" (EP19 §3.1: 18 → 19 sessions took one vCPU from 45 % to 88–103 %).
 *
 * <p>Two rules, the earlier step wins: (1) in the chosen segmented model, slope after ψ ≥ factor ×
 * slope before, with Davies' test significant and some later step above the pre-knee line by more than the
 * relative tolerance (a knee that changes nothing a planner would see is no cliff); (2) scanning steps in load order, step k is a cliff when its measured value exceeds the
 * line through steps 0..k−1 by more than the relative tolerance <em>and</em> either lies above that line's
 * prediction interval or the slope into step k is ≥ factor × the line's slope. The second arm matters when
 * only three steps precede the cliff (LiveKit 30×30): with one residual dof the interval is uninformative.
 */
public final class CliffDetector {
    private CliffDetector() {
    }

    /**
     * Applies both rules to {@code s} given the model chosen for it; the segment rule only counts when the
     * breakpoint's existence p-value is below {@code o.existenceAlpha()}, so a spurious knee in noise is no cliff.
     */
    public static CliffDetection detect(StepSeries s, ModelFit chosen, double existencePValue, CliffOptions o) {
        CliffDetection fromSegments = existencePValue < o.existenceAlpha() ? fromSegments(s, chosen, o)
                : CliffDetection.none();
        CliffDetection fromScan = scan(s, o);
        if (!fromSegments.cliff()) {
            return fromScan;
        }
        if (fromScan.cliff() && fromScan.cliffPosition() <= fromSegments.cliffPosition()) {
            return fromScan;
        }
        return fromSegments;
    }

    private static CliffDetection fromSegments(StepSeries s, ModelFit chosen, CliffOptions o) {
        for (int j = 0; j < chosen.breakpoints().size(); j++) {
            double before = chosen.segments().get(j).getSlope(), after = chosen.segments().get(j + 1).getSlope();
            if (before > 0 && after / before >= o.slopeFactor()) {
                double psi = chosen.breakpoints().get(j).getX();
                int pos = 0;
                while (pos < s.size() && s.x(pos) <= psi) {
                    pos++;
                }
                if (pos >= s.size() || pos < 2 || !departsFromLine(s, pos, o)) {
                    continue;
                }
                return new CliffDetection(true, CliffReason.SEGMENT_SLOPE_RATIO, pos, s.x(pos), s.x(pos - 1),
                        after / before, Optional.of(extrapolation(s, pos, o)));
            }
        }
        return CliffDetection.none();
    }

    /** Whether some step at or after {@code pos} exceeds the line through the steps before it by the relative tolerance. */
    private static boolean departsFromLine(StepSeries s, int pos, CliffOptions o) {
        LinearFit line = LinearModel.fitLine(s.head(pos));
        for (int k = pos; k < s.size(); k++) {
            double predicted = line.predict(s.x(k));
            if (s.y(k) > predicted + o.relativeTolerance() * Math.abs(predicted)) {
                return true;
            }
        }
        return false;
    }

    private static CliffDetection scan(StepSeries s, CliffOptions o) {
        for (int k = o.minPriorSteps(); k < s.size(); k++) {
            LinearFit line = LinearModel.fitLine(s.head(k));
            if (!(line.slope() > 0)) {
                continue;
            }
            double predicted = line.predict(s.x(k)), measured = s.y(k);
            boolean exceeds = measured > predicted + o.relativeTolerance() * Math.abs(predicted);
            if (!exceeds) {
                continue;
            }
            double half = line.predictionHalfWidth(s.x(k), o.predictionLevel());
            double lastSlope = (measured - s.y(k - 1)) / (s.x(k) - s.x(k - 1));
            double ratio = lastSlope / line.slope();
            CliffReason reason = !Double.isNaN(half) && measured > predicted + half ? CliffReason.ABOVE_PREDICTION_INTERVAL
                    : ratio >= o.slopeFactor() ? CliffReason.STEEP_LAST_SLOPE : CliffReason.NONE;
            if (reason != CliffReason.NONE) {
                return new CliffDetection(true, reason, k, s.x(k), s.x(k - 1), ratio,
                        Optional.of(extrapolation(s, k, o)));
            }
        }
        return CliffDetection.none();
    }

    /** Prediction of step {@code k} from the line through all earlier steps, with its interval. */
    public static ExtrapolationError extrapolation(StepSeries s, int k, CliffOptions o) {
        LinearFit line = LinearModel.fitLine(s.head(k));
        double p = line.predict(s.x(k)), half = line.predictionHalfWidth(s.x(k), o.predictionLevel());
        return new ExtrapolationError(s.stepIndex(k), s.x(k), p, p - half, p + half, s.y(k), s.minY(k), s.maxY(k));
    }
}
