package dev.caplab.stepper;

import dev.caplab.schema.event.RunBottleneck;
import dev.caplab.schema.event.RunConclusion;
import java.util.Locale;

/** A run conclusion in one line of progress output: max stable load, first failing step, bottleneck. */
public final class ConclusionText {

    private ConclusionText() {
    }

    public static String of(RunConclusion c) {
        StringBuilder out = new StringBuilder();
        out.append(c.getMaxStableStepIndex() == null ? "no passing step yet"
                : "max stable load x=" + number(c.getMaxStableX()) + " (step index " + c.getMaxStableStepIndex() + ")");
        if (c.getFirstFailingStepIndex() != null) {
            out.append(", first failing x=").append(number(c.getFirstFailingX())).append(" (step index ")
                    .append(c.getFirstFailingStepIndex()).append(')');
        }
        out.append("; ").append(c.getStepsJudged()).append(" step(s) judged, ").append(c.getStepsSkipped())
                .append(" skipped (contaminated or unjudged)");
        RunBottleneck b = c.getBottleneck();
        if (b != null) {
            out.append("; bottleneck ").append(b.getMetric()).append('@').append(b.getSource()).append(" (")
                    .append(b.getRule().name().toLowerCase(Locale.ROOT).replace('_', ' ')).append(')');
        }
        return out.toString();
    }

    private static String number(Double x) {
        if (x == null) {
            return "?";
        }
        return x == Math.rint(x) && Math.abs(x) < 1e15 ? Long.toString(x.longValue())
                : String.format(Locale.ROOT, "%.4g", x);
    }
}
