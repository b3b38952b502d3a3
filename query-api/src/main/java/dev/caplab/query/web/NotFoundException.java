package dev.caplab.query.web;

/** Something the client named (a run, a step) does not exist; the message says which. */
public class NotFoundException extends RuntimeException {

    public NotFoundException(String message) {
        super(message);
    }
}
