package dev.caplab.ingest.census;

/**
 * A body carries more values than a request may, counted before it is decoded into objects: answered with 413,
 * nothing stored. {@link #field()} is the path of the field whose count broke the limit, in the body's own spelling.
 */
public final class TooManyValuesException extends RuntimeException {

    private final String field;

    public TooManyValuesException(String field, String reason) {
        super(field + ": " + reason, null, false, false);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
