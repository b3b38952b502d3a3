package dev.caplab.analysis;

/** A numerical fit did not converge or produced a singular system; the message names the model and the data size. */
public final class FitFailedException extends AnalysisException {
    public FitFailedException(String message, Throwable cause) {
        super(message, cause);
    }

    public FitFailedException(String message) {
        super(message);
    }
}
