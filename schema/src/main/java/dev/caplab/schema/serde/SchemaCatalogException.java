package dev.caplab.schema.serde;

/** The schemas shipped with caplab (current or released) are missing or malformed: a build or packaging fault. */
public final class SchemaCatalogException extends RuntimeException {

    public SchemaCatalogException(String message) {
        super(message);
    }

    public SchemaCatalogException(String message, Throwable cause) {
        super(message, cause);
    }
}
