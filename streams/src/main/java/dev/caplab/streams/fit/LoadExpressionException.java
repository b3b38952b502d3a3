package dev.caplab.streams.fit;

/** A run's load expression cannot be parsed or names a dimension the step does not have. */
public final class LoadExpressionException extends RuntimeException {

    private final String expression;

    public LoadExpressionException(String expression, String reason) {
        super("load expression '" + expression + "': " + reason);
        this.expression = expression;
    }

    public String expression() {
        return expression;
    }
}
