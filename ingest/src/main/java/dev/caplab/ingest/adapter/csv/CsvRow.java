package dev.caplab.ingest.adapter.csv;

import dev.caplab.ingest.adapter.FieldException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** One data record addressed by column name, with typed reads that fail naming the column. */
public record CsvRow(long line, CsvHeader header, List<String> values, String raw, Instant readAt) {

    public CsvRow {
        values = List.copyOf(values);
    }

    /** The text of a column, empty when the table has no such column. */
    public Optional<String> text(String column) {
        int i = header.indexOf(column);
        return i < 0 || i >= values.size() ? Optional.empty() : Optional.of(values.get(i));
    }

    /** The text of a column the row must have. */
    public String required(String column) {
        return text(column).orElseThrow(() -> new FieldException(column, "missing column"));
    }

    public double number(String column) {
        String text = required(column).strip();
        try {
            double value = Double.parseDouble(text);
            if (Double.isNaN(value) || Double.isInfinite(value)) {
                throw new FieldException(column, "not a finite number: '" + text + "'");
            }
            return value;
        } catch (NumberFormatException e) {
            throw new FieldException(column, "not a number: '" + text + "'");
        }
    }

    /** A number, or empty when the column is absent or holds one of {@code absentMarkers} (Locust writes N/A). */
    public Optional<Double> optionalNumber(String column, String... absentMarkers) {
        Optional<String> text = text(column).map(String::strip);
        if (text.isEmpty() || text.get().isEmpty() || List.of(absentMarkers).contains(text.get())) {
            return Optional.empty();
        }
        return Optional.of(number(column));
    }

    public long integer(String column) {
        String text = required(column).strip();
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new FieldException(column, "not an integer: '" + text + "'");
        }
    }
}
