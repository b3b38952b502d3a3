package dev.caplab.store.row;

/** A row that belongs to one run, as every row the sink writes does: what deleting the run removes. */
public interface RunScopedRow {

    /** The run the row belongs to. */
    String runId();
}
