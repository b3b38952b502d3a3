package dev.caplab.demo;

import dev.caplab.schema.event.SloRule;
import java.math.BigDecimal;

/**
 * An SLO rule in the text form caplab's run API accepts ({@code statistic(metric)<=threshold}, e.g.
 * {@code rate(frames.dropped)<=0}). The demo names its rules by this text, which is the name the ingest API gives a
 * rule it parses: a demo run reads back from the pipeline exactly as it was built.
 */
final class SloText {

    private SloText() {
    }

    /** {@code statistic(metric) op threshold}, with the threshold in its shortest decimal form. */
    static String of(String metric, String statistic, dev.caplab.schema.event.Comparator comparator, double threshold) {
        if (!Double.isFinite(threshold)) {
            throw new IllegalArgumentException("SLO rule on " + metric + ": threshold must be finite, was " + threshold);
        }
        String op = switch (comparator) {
            case LT -> "<";
            case LE -> "<=";
            case GT -> ">";
            case GE -> ">=";
            case EQ -> "==";
        };
        return statistic + "(" + metric + ")" + op + BigDecimal.valueOf(threshold).stripTrailingZeros().toPlainString();
    }

    /** The text of a rule built by {@link DemoEvents#rule}; a rule the text form cannot carry is refused. */
    static String of(SloRule rule) {
        if (rule.getSource() != null) {
            throw new IllegalArgumentException("SLO rule " + rule.getName() + ": the run API's text form has no source");
        }
        String text = of(rule.getMetric(), rule.getStatistic(), rule.getComparator(), rule.getThreshold());
        if (!text.equals(rule.getName())) {
            throw new IllegalArgumentException("SLO rule '" + rule.getName() + "' must be named by its text '" + text
                    + "', the name the run API gives it");
        }
        return text;
    }
}
