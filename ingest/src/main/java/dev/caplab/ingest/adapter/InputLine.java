package dev.caplab.ingest.adapter;

import java.time.Instant;
import java.util.Objects;

/**
 * One physical line of input: its 1-based number, its text without the line terminator, when it was read, and
 * whether it was read live, while the tool wrote it (a pipe, a followed file, a scrape). Only a live line's read
 * time may stand in for a time the line does not carry ({@link UndatedRows}); a file read later was not written
 * at its read time.
 */
public record InputLine(long number, String text, Instant readAt, boolean live) {

    public InputLine {
        if (number < 1) {
            throw new IllegalArgumentException("line numbers start at 1, was " + number);
        }
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(readAt, "readAt");
    }
}
