package dev.caplab.ingest.adapter.csv;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The column names of a CSV table, read from its first record or implied by the format when it has none. */
public final class CsvHeader {

    private final List<String> columns;
    private final boolean fromInput;
    private final Map<String, Integer> index = new HashMap<>();

    public CsvHeader(List<String> columns, boolean fromInput) {
        this.columns = List.copyOf(columns);
        this.fromInput = fromInput;
        for (int i = this.columns.size() - 1; i >= 0; i--) {
            index.put(this.columns.get(i).strip(), i);
        }
    }

    public List<String> columns() {
        return columns;
    }

    /** Whether the header was the input's first record (and so is not data). */
    public boolean fromInput() {
        return fromInput;
    }

    public int indexOf(String column) {
        return index.getOrDefault(column, -1);
    }

    public boolean has(String column) {
        return index.containsKey(column);
    }

    public int size() {
        return columns.size();
    }
}
