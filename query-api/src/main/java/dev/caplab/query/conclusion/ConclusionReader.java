package dev.caplab.query.conclusion;

import java.util.Optional;

/** Reads a run's stored conclusion. */
public interface ConclusionReader {

    /** Empty while no step of the run has closed, or for an unknown run. */
    Optional<ConclusionView> conclusion(String runId);
}
