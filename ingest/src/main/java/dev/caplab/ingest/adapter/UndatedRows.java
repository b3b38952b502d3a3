package dev.caplab.ingest.adapter;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The time of a row that carries none of its own (docker stats without a wrapper timestamp, a saved /metrics page,
 * line protocol without timestamps): the {@code at} option when given, else the read time only when the line was
 * read live. A file read later was not written at its read time, so without {@code at} its undated rows are refused
 * naming the option: never silently "now", which would move a run ingested a day later to today.
 */
public record UndatedRows(String format, Optional<Instant> at) {

    /** The option that gives undated rows their time, an ISO-8601 instant such as {@code 2026-12-02T10:15:00Z}. */
    public static final String OPTION = "at";

    public UndatedRows {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(at, "at");
    }

    /** Without {@code at}: a live line's read time, else a refusal. */
    public static UndatedRows unset(String format) {
        return new UndatedRows(format, Optional.empty());
    }

    public static UndatedRows of(String format, AdapterOptions options) {
        return new UndatedRows(format, options.instant(OPTION));
    }

    /**
     * The time of {@code line}, which carries none of its own.
     *
     * @throws FieldException (field {@code timestamp}) for a line of a file read after it was written, without {@code at}
     */
    public Instant timeOf(InputLine line) {
        if (at.isPresent()) {
            return at.get();
        }
        if (line.live()) {
            return line.readAt();
        }
        throw new FieldException("timestamp", "the line carries no time and the input is a file, whose read time "
                + "is not its time: give the time it was written with -o " + OPTION + "=<ISO-8601 instant, e.g. "
                + "2026-12-02T10:15:00Z> (format " + format + ")");
    }
}
