package dev.caplab.ingest.adapter.csv;

import dev.caplab.ingest.adapter.FieldException;
import dev.caplab.ingest.adapter.InputLine;
import dev.caplab.ingest.adapter.LineParser;
import dev.caplab.ingest.adapter.ResultBuilder;
import dev.caplab.ingest.parse.ParseResult;
import java.util.Optional;

/**
 * The one CSV-with-header reader shared by the Locust and JMeter adapters: assembles records, settles the header,
 * checks each row's width and hands rows to the format's mapper. A bad row becomes an error naming its line and
 * column; rows around it still produce samples.
 */
public final class CsvLineParser implements LineParser {

    private final CsvTableFormat format;
    private final CsvRecordReader records = new CsvRecordReader();
    private CsvHeader header;
    private RowMapper mapper;
    private String headerProblem;

    public CsvLineParser(CsvTableFormat format) {
        this.format = format;
    }

    @Override
    public ParseResult accept(InputLine line) {
        ResultBuilder out = new ResultBuilder();
        try {
            Optional<CsvRecord> record = records.accept(line);
            record.ifPresent(r -> onRecord(r, out));
        } catch (CsvSyntaxException e) {
            out.error(e.line(), null, e.getMessage(), e.excerpt());
        }
        return out.build();
    }

    @Override
    public ParseResult finish() {
        ResultBuilder out = new ResultBuilder();
        try {
            records.finish();
        } catch (CsvSyntaxException e) {
            out.error(e.line(), null, e.getMessage(), e.excerpt());
        }
        return out.build();
    }

    private void onRecord(CsvRecord record, ResultBuilder out) {
        if (record.raw().isBlank()) {
            return;
        }
        if (header == null) {
            header = format.header(record);
            try {
                mapper = format.mapperFor(header);
            } catch (FieldException e) {
                headerProblem = e.reason();
                out.error(record.line(), e.field(), e.reason(), record.raw());
            }
            if (header.fromInput()) {
                return;
            }
        }
        if (mapper == null) {
            out.error(record.line(), null, "row not read: " + headerProblem, record.raw());
            return;
        }
        if (record.fields().size() != header.size()) {
            out.error(record.line(), null, "expected " + header.size() + " fields, found " + record.fields().size()
                    + (record.fields().size() < header.size() ? " (truncated line?)" : ""), record.raw());
            return;
        }
        ResultBuilder rowOut = new ResultBuilder();
        try {
            mapper.map(new CsvRow(record.line(), header, record.fields(), record.raw(), record.readAt()), rowOut);
            out.add(rowOut.build());
        } catch (FieldException e) {
            // the whole row is rejected: half a row's samples would look like a complete observation
            out.error(record.line(), e.field(), e.reason(), record.raw());
        }
    }
}
