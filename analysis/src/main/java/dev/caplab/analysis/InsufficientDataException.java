package dev.caplab.analysis;

/** The input has too few steps (or too few distinct loads) for the requested model. */
public final class InsufficientDataException extends AnalysisException {
    private final int available;
    private final int required;

    public InsufficientDataException(String what, int available, int required) {
        super(what + ": " + available + " available, at least " + required + " required");
        this.available = available;
        this.required = required;
    }

    public int available() {
        return available;
    }

    public int required() {
        return required;
    }
}
