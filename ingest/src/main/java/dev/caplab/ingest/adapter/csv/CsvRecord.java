package dev.caplab.ingest.adapter.csv;

import java.time.Instant;
import java.util.List;

/**
 * One logical CSV record: the line it started on (quoted fields may span lines), its fields, its raw text, and when
 * its last line was read.
 */
public record CsvRecord(long line, List<String> fields, String raw, Instant readAt) {

    public CsvRecord {
        fields = List.copyOf(fields);
    }
}
