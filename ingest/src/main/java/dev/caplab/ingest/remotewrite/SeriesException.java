package dev.caplab.ingest.remotewrite;

/** One series of a write request cannot be stored: which field and why (the series is named by the caller). */
final class SeriesException extends RuntimeException {

    private final String field;

    SeriesException(String field, String reason) {
        super(reason, null, false, false);
        this.field = field;
    }

    String field() {
        return field;
    }
}
