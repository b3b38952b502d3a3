package dev.caplab.query.conclusion;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/** Reads a run's stored conclusion. */
public interface ConclusionReader {

    /** Empty while no step of the run has closed, or for an unknown run. */
    Optional<ConclusionView> conclusion(String runId);

    /** The newest conclusion of every run of {@code runIds} that has one, by run id, in one read. */
    Map<String, ConclusionView> conclusions(Collection<String> runIds);
}
