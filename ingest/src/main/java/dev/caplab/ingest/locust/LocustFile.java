package dev.caplab.ingest.locust;

import java.util.List;
import java.util.Optional;

/** The four files Locust writes for {@code --csv PREFIX}, each recognised by its suffix and its header. */
public enum LocustFile {
    /** Appended every interval; the only file with timestamps. */
    STATS_HISTORY("_stats_history.csv", List.of("Timestamp", "User Count")),
    /** Rewritten in place every interval: totals since start. */
    STATS("_stats.csv", List.of("Type", "Name", "Request Count")),
    FAILURES("_failures.csv", List.of("Method", "Name", "Error", "Occurrences")),
    EXCEPTIONS("_exceptions.csv", List.of("Count", "Message", "Traceback", "Nodes"));

    private final String suffix;
    private final List<String> leadingColumns;

    LocustFile(String suffix, List<String> leadingColumns) {
        this.suffix = suffix;
        this.leadingColumns = leadingColumns;
    }

    public String suffix() {
        return suffix;
    }

    /** Which file a header belongs to, judged by its first columns. */
    public static Optional<LocustFile> byHeader(List<String> header) {
        for (LocustFile file : values()) {
            if (header.size() >= file.leadingColumns.size()
                    && header.subList(0, file.leadingColumns.size()).equals(file.leadingColumns)) {
                return Optional.of(file);
            }
        }
        return Optional.empty();
    }
}
