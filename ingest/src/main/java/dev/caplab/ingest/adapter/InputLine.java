package dev.caplab.ingest.adapter;

import java.time.Instant;
import java.util.Objects;

/**
 * One physical line of input: its 1-based number, its text without the line terminator, and when it was read.
 * The read time stands in for formats whose lines carry no timestamp (docker stats, Locust's snapshot files).
 */
public record InputLine(long number, String text, Instant readAt) {

    public InputLine {
        if (number < 1) {
            throw new IllegalArgumentException("line numbers start at 1, was " + number);
        }
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(readAt, "readAt");
    }
}
