package dev.caplab.ingest.lifecycle;

import dev.caplab.schema.event.Comparator;
import dev.caplab.schema.event.SloRule;
import dev.caplab.schema.vocabulary.Statistics;

/**
 * Parses SLO rules written as {@code statistic(metric) op threshold}, e.g. {@code p95(http_req_duration)<=500},
 * {@code rate(http_req_failed)<0.01}, or {@code metric op threshold} for the sustained value. Operators: {@code <},
 * {@code <=}, {@code >}, {@code >=}, {@code ==}. The rule's name is the text as written.
 */
public final class SloRules {

    private SloRules() {
    }

    public static SloRule parse(String text) {
        String rule = text == null ? "" : text.replace(" ", "");
        int op = indexOfOperator(rule);
        if (op <= 0) {
            throw invalid(text, "expected statistic(metric) <op> threshold with op one of < <= > >= ==");
        }
        String subject = rule.substring(0, op);
        int opLength = rule.startsWith("<=", op) || rule.startsWith(">=", op) || rule.startsWith("==", op) ? 2 : 1;
        Comparator comparator = switch (rule.substring(op, op + opLength)) {
            case "<" -> Comparator.LT;
            case "<=" -> Comparator.LE;
            case ">" -> Comparator.GT;
            case ">=" -> Comparator.GE;
            default -> Comparator.EQ;
        };
        double threshold;
        try {
            threshold = Double.parseDouble(rule.substring(op + opLength));
        } catch (NumberFormatException e) {
            throw invalid(text, "threshold '" + rule.substring(op + opLength) + "' is not a number");
        }
        if (!Double.isFinite(threshold)) {
            throw invalid(text, "threshold must be finite");
        }
        String statistic = "sustained";
        String metric = subject;
        int open = subject.indexOf('(');
        if (open >= 0) {
            if (!subject.endsWith(")") || open == 0) {
                throw invalid(text, "unbalanced parentheses in '" + subject + "'");
            }
            statistic = subject.substring(0, open);
            metric = subject.substring(open + 1, subject.length() - 1);
        }
        if (!Statistics.ALL.contains(statistic)) {
            throw invalid(text, "unknown statistic '" + statistic + "'; known: " + new java.util.TreeSet<>(Statistics.ALL));
        }
        if (metric.isEmpty()) {
            throw invalid(text, "missing metric");
        }
        return SloRule.newBuilder().setName(text.strip()).setMetric(metric).setStatistic(statistic)
                .setComparator(comparator).setThreshold(threshold).build();
    }

    private static int indexOfOperator(String rule) {
        for (int i = 0; i < rule.length(); i++) {
            char c = rule.charAt(i);
            if (c == '<' || c == '>' || (c == '=' && rule.startsWith("==", i))) {
                return i;
            }
        }
        return -1;
    }

    private static InvalidLifecycleRequestException invalid(String text, String reason) {
        return new InvalidLifecycleRequestException("SLO rule '" + text + "': " + reason);
    }
}
