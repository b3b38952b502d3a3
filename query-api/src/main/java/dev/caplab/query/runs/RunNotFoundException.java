package dev.caplab.query.runs;

import dev.caplab.query.web.NotFoundException;

/** No run has this id. */
public final class RunNotFoundException extends NotFoundException {

    public RunNotFoundException(String runId) {
        super("no run with id '" + runId + "'");
    }
}
