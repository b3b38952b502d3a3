package dev.caplab.ingest.locust;

import dev.caplab.ingest.adapter.FieldException;
import dev.caplab.ingest.adapter.csv.CsvHeader;
import dev.caplab.ingest.adapter.csv.CsvRecord;
import dev.caplab.ingest.adapter.csv.CsvTableFormat;
import dev.caplab.ingest.adapter.csv.RowMapper;

/** Any of Locust's CSV files, told apart by their header so one parser reads whichever it is given. */
final class LocustCsvFormat implements CsvTableFormat {

    private final String source;
    private final HistoryMode historyMode;
    private final TotalsTime totalsTime;

    LocustCsvFormat(String source, HistoryMode historyMode, TotalsTime totalsTime) {
        this.source = source;
        this.historyMode = historyMode;
        this.totalsTime = totalsTime;
    }

    @Override
    public CsvHeader header(CsvRecord first) {
        return new CsvHeader(first.fields(), true);
    }

    @Override
    public RowMapper mapperFor(CsvHeader header) {
        LocustFile file = LocustFile.byHeader(header.columns()).orElseThrow(() -> new FieldException("header",
                "not a Locust CSV header (expected _stats, _stats_history, _failures or _exceptions columns)"));
        return switch (file) {
            case STATS_HISTORY -> new HistoryRows(header, source, historyMode);
            case STATS -> new StatsRows(header, source, totalsTime);
            case FAILURES, EXCEPTIONS -> new OccurrenceRows(file, source, totalsTime);
        };
    }
}
