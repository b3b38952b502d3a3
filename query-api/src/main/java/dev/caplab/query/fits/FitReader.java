package dev.caplab.query.fits;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Reads the latest capacity fits of runs from the store. */
public interface FitReader {

    /** The run's current fit per (source, metric); a null filter matches everything. */
    List<FitView> fits(String runId, Optional<String> metric);

    /** The current fits of every run of {@code runIds} in one read, by run id, then metric and source. */
    List<FitView> fitsOfRuns(Collection<String> runIds);
}
