package dev.caplab.analysis;

/** Base of every failure the analysis library reports; always carries what was being analysed. */
public class AnalysisException extends RuntimeException {
    public AnalysisException(String message) {
        super(message);
    }

    public AnalysisException(String message, Throwable cause) {
        super(message, cause);
    }
}
