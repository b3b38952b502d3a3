package dev.caplab.streams.fit;

import java.util.Map;
import java.util.Objects;

/**
 * The run's load expression, e.g. {@code cameras*(participants-1)} or {@code users}: + − × ÷, parentheses, numbers
 * and load-dimension names. The default {@code load} names the step's only dimension when it has no "load" key.
 */
public final class LoadExpression {

    private final String text;
    private int pos;

    private LoadExpression(String text) {
        this.text = text;
    }

    /** Evaluates {@code expression} over a step's load dimensions. */
    public static double evaluate(String expression, Map<String, Double> load) {
        Objects.requireNonNull(expression, "expression");
        LoadExpression parser = new LoadExpression(expression);
        double value = parser.expr(load);
        parser.skipSpaces();
        if (parser.pos != expression.length()) {
            throw parser.error("unexpected '" + expression.charAt(parser.pos) + "'");
        }
        return value;
    }

    private double expr(Map<String, Double> load) {
        double v = term(load);
        while (true) {
            skipSpaces();
            if (eat('+')) {
                v += term(load);
            } else if (eat('-')) {
                v -= term(load);
            } else {
                return v;
            }
        }
    }

    private double term(Map<String, Double> load) {
        double v = factor(load);
        while (true) {
            skipSpaces();
            if (eat('*')) {
                v *= factor(load);
            } else if (eat('/')) {
                v /= factor(load);
            } else {
                return v;
            }
        }
    }

    private double factor(Map<String, Double> load) {
        skipSpaces();
        if (eat('-')) {
            return -factor(load);
        }
        if (eat('(')) {
            double v = expr(load);
            skipSpaces();
            if (!eat(')')) {
                throw error("missing ')'");
            }
            return v;
        }
        int start = pos;
        if (pos < text.length() && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '.')) {
            while (pos < text.length() && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '.'
                    || text.charAt(pos) == 'e')) {
                pos++;
            }
            return Double.parseDouble(text.substring(start, pos));
        }
        while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_'
                || text.charAt(pos) == '.')) {
            pos++;
        }
        if (start == pos) {
            throw error(pos < text.length() ? "unexpected '" + text.charAt(pos) + "'" : "unexpected end");
        }
        String name = text.substring(start, pos);
        Double value = load.get(name);
        if (value == null && name.equals("load") && load.size() == 1) {
            value = load.values().iterator().next();
        }
        if (value == null) {
            throw new LoadExpressionException(text, "unknown load dimension '" + name + "', step has " + load.keySet());
        }
        return value;
    }

    private boolean eat(char c) {
        if (pos < text.length() && text.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void skipSpaces() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private LoadExpressionException error(String what) {
        return new LoadExpressionException(text, what + " at position " + pos);
    }
}
