package dev.caplab.store.row;

import java.util.List;

/**
 * A run's per-request groups read in one query: those of each slot (time range) asked for, by slot and key, and the
 * same groups over the whole run, by key.
 */
public record RequestGroupRows(List<RequestGroupRow> perSlot, List<RequestGroupRow> wholeRun) {

    public RequestGroupRows {
        perSlot = List.copyOf(perSlot);
        wholeRun = List.copyOf(wholeRun);
    }
}
