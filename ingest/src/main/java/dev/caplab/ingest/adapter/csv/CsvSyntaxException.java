package dev.caplab.ingest.adapter.csv;

/** Text that is not RFC 4180 CSV, e.g. characters after a closing quote or a quoted field never closed. */
public final class CsvSyntaxException extends RuntimeException {

    private final long line;
    private final String excerpt;

    public CsvSyntaxException(long line, String reason, String excerpt) {
        super(reason);
        this.line = line;
        this.excerpt = excerpt;
    }

    public long line() {
        return line;
    }

    public String excerpt() {
        return excerpt;
    }
}
