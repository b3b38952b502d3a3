package dev.caplab.analysis.fit;

import java.util.Objects;

/** How one candidate model fared in selection: its BIC when fitted, or why it was not. */
public record CandidateScore(String modelName, Status status, double bic, String note) {
    /** Whether a candidate was fitted. */
    public enum Status { FITTED, TOO_FEW_STEPS, FIT_FAILED }

    public CandidateScore {
        Objects.requireNonNull(modelName, "modelName");
        Objects.requireNonNull(status, "status");
        note = note == null ? "" : note;
        if (status == Status.FITTED && !Double.isFinite(bic)) {
            throw new IllegalArgumentException(modelName + ": fitted candidate needs a finite BIC, got " + bic);
        }
    }
}
