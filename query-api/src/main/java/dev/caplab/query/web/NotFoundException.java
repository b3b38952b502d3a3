package dev.caplab.query.web;

import java.util.Map;

/**
 * Something the client named (a run, a step) does not exist; the message says which. A subtype may give the problem
 * a more precise type (e.g. {@code run-deleted}) and properties the answer carries besides its detail.
 */
public class NotFoundException extends RuntimeException {

    public NotFoundException(String message) {
        super(message);
    }

    /** The problem type's last path segment. */
    public String problemType() {
        return "not-found";
    }

    /** The problem's title. */
    public String problemTitle() {
        return "Not found";
    }

    /** Properties of the problem besides type, title, status and detail. */
    public Map<String, Object> problemProperties() {
        return Map.of();
    }
}
