package dev.caplab.ingest.adapter;

import java.util.Objects;

/** A value that cannot be read: which field and why; the caller adds the line and turns it into a ParseError. */
public final class FieldException extends RuntimeException {

    private final String field;

    public FieldException(String field, String reason) {
        super(reason);
        this.field = Objects.requireNonNull(field, "field");
    }

    public String field() {
        return field;
    }

    public String reason() {
        return getMessage();
    }
}
