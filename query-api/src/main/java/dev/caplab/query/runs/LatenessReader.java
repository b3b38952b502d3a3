package dev.caplab.query.runs;

/** Reads how much of a run's input came late. */
public interface LatenessReader {

    /** {@link RunLateness#NONE} for a run nothing came late for, or an unknown run. */
    RunLateness lateness(String runId);
}
