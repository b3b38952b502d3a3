package dev.caplab.ingest.parse;

import java.util.Objects;

/** One rejected piece of input: where it was (line, optional field) and why, so the user can fix it. */
public record ParseError(long line, String field, String reason, String excerpt) {

    public ParseError {
        if (line < 0) {
            throw new IllegalArgumentException("line must be >= 0 (0 = whole input), was " + line);
        }
        Objects.requireNonNull(reason, "reason");
        excerpt = excerpt == null ? "" : excerpt.length() > 120 ? excerpt.substring(0, 120) + "…" : excerpt;
    }

    /** "line 7, field usage_user: not a number" — the form every adapter reports errors in. */
    public String describe() {
        String where = line == 0 ? "input" : "line " + line;
        return field == null || field.isEmpty() ? where + ": " + reason : where + ", field " + field + ": " + reason;
    }
}
