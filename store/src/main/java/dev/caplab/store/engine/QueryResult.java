package dev.caplab.store.engine;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * What one statement returned: the formatted output bytes and the engine's counters.
 *
 * @param data           output in the requested format; owned by the caller, not copied again
 * @param rowsRead       rows the engine read to produce the result
 * @param bytesRead      bytes the engine read to produce the result
 * @param rowsWritten    rows written (INSERT), 0 for reads
 * @param bytesWritten   bytes written (INSERT), 0 for reads
 * @param elapsedSeconds wall time the engine reports for the statement
 */
public record QueryResult(byte[] data, long rowsRead, long bytesRead, long rowsWritten, long bytesWritten,
                          double elapsedSeconds) {

    public QueryResult {
        Objects.requireNonNull(data, "data");
        if (rowsRead < 0 || bytesRead < 0 || rowsWritten < 0 || bytesWritten < 0) {
            throw new IllegalArgumentException("negative counter in query result");
        }
        if (!(elapsedSeconds >= 0)) {
            throw new IllegalArgumentException("elapsedSeconds must be >= 0, was " + elapsedSeconds);
        }
    }

    /** The output decoded as UTF-8, for text formats. */
    public String text() {
        return new String(data, StandardCharsets.UTF_8);
    }
}
