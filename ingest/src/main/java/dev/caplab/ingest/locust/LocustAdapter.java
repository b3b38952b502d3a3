package dev.caplab.ingest.locust;

import dev.caplab.ingest.adapter.Adapter;
import dev.caplab.ingest.adapter.AdapterOptions;
import dev.caplab.ingest.adapter.LineParser;
import dev.caplab.ingest.adapter.csv.CsvLineParser;
import dev.caplab.ingest.adapter.UndatedRows;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Locust's {@code --csv} output, any of its four files. Options: {@code source} (default "locust"),
 * {@code history=auto|cumulative|window} to override the detection of what history percentiles cover, and
 * {@code at=INSTANT}, the time of the totals files, which carry none ({@link TotalsTime}; {@code caplab ingest}
 * sets it to the history's last timestamp).
 */
public final class LocustAdapter implements Adapter {

    public static final String FORMAT = "locust";
    public static final String DEFAULT_SOURCE = "locust";

    private final String source;
    private final HistoryMode historyMode;
    private final TotalsTime totalsTime;

    public LocustAdapter(String source, HistoryMode historyMode, Optional<Instant> totalsAt) {
        this.source = source;
        this.historyMode = historyMode;
        this.totalsTime = new TotalsTime(totalsAt);
    }

    public static LocustAdapter of(AdapterOptions options) {
        options.requireKnown(FORMAT, Set.of("source", "history", UndatedRows.OPTION), Set.of());
        String mode = options.choice("history", "auto", Set.of("auto", "cumulative", "window"));
        return new LocustAdapter(options.text("source", DEFAULT_SOURCE),
                HistoryMode.valueOf(mode.toUpperCase(Locale.ROOT)), options.instant(UndatedRows.OPTION));
    }

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public LineParser newParser() {
        return new CsvLineParser(new LocustCsvFormat(source, historyMode, totalsTime));
    }
}
