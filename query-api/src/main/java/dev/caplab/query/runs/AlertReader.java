package dev.caplab.query.runs;

import dev.caplab.store.row.AlertRow;
import java.util.List;

/** The alerts raised for a run: failed or contaminated steps, cliffs, input the pipeline rejected or limited. */
public interface AlertReader {

    /** Oldest first; empty for a run without alerts or an unknown run. */
    List<AlertRow> alerts(String runId);
}
