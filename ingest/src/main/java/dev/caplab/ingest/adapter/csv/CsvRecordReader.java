package dev.caplab.ingest.adapter.csv;

import dev.caplab.ingest.adapter.InputLine;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Assembles RFC 4180 records from physical lines as they arrive. Quoted fields may hold commas, doubled quotes and
 * line breaks (Locust writes Python tracebacks into {@code _exceptions.csv}), so a record can span several lines.
 */
public final class CsvRecordReader {

    /** A quoted field longer than this many lines is taken as an unclosed quote rather than buffered forever. */
    static final int MAX_RECORD_LINES = 10_000;

    private final List<String> fields = new ArrayList<>();
    private final StringBuilder field = new StringBuilder();
    private final StringBuilder raw = new StringBuilder();
    private boolean inQuotes;
    private long startLine;
    private int lines;

    /** Feeds one line; answers the record it completes, if any. */
    public Optional<CsvRecord> accept(InputLine line) {
        if (lines == 0) {
            startLine = line.number();
        } else {
            raw.append('\n');
            field.append('\n');
        }
        lines++;
        raw.append(line.text());
        String text = line.text();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (inQuotes) {
                if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    field.append('"');
                    i += 2;
                    continue;
                }
                if (c == '"') {
                    inQuotes = false;
                    if (i + 1 < text.length() && text.charAt(i + 1) != ',') {
                        throw fail("characters after a closing quote at column " + (i + 2));
                    }
                } else {
                    field.append(c);
                }
            } else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
            } else if (c == '"' && field.isEmpty()) {
                inQuotes = true;
            } else {
                field.append(c);
            }
            i++;
        }
        if (inQuotes) {
            if (lines >= MAX_RECORD_LINES) {
                throw fail("quoted field not closed within " + MAX_RECORD_LINES + " lines");
            }
            return Optional.empty();
        }
        fields.add(field.toString());
        CsvRecord record = new CsvRecord(startLine, fields, raw.toString(), line.readAt());
        reset();
        return Optional.of(record);
    }

    /** The input ended; a record still open means it was truncated inside a quoted field. */
    public void finish() {
        if (lines > 0) {
            throw fail("input ended inside a quoted field (truncated?)");
        }
    }

    private CsvSyntaxException fail(String reason) {
        CsvSyntaxException e = new CsvSyntaxException(startLine, reason, raw.toString());
        reset();
        return e;
    }

    private void reset() {
        fields.clear();
        field.setLength(0);
        raw.setLength(0);
        inQuotes = false;
        lines = 0;
    }
}
