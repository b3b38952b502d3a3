package dev.caplab.query.fits;

import java.util.List;
import java.util.Optional;

/** Reads the latest capacity fits of runs from the store. */
public interface FitReader {

    /** The run's current fit per (source, metric); a null filter matches everything. */
    List<FitView> fits(String runId, Optional<String> metric);
}
