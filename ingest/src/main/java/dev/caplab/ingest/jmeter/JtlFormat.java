package dev.caplab.ingest.jmeter;

import dev.caplab.ingest.adapter.FieldException;
import dev.caplab.ingest.adapter.csv.CsvHeader;
import dev.caplab.ingest.adapter.csv.CsvRecord;
import dev.caplab.ingest.adapter.csv.CsvTableFormat;
import dev.caplab.ingest.adapter.csv.RowMapper;
import java.util.List;

/**
 * A JTL CSV file with any subset of the standard columns. A first record naming {@code timeStamp} or
 * {@code elapsed} is the header; otherwise the file is headerless and has the configured columns (JMeter's
 * default set unless the user says otherwise, since JMeter writes no header when print_field_names=false).
 */
final class JtlFormat implements CsvTableFormat {

    private final List<String> headerlessColumns;
    private final String source;

    JtlFormat(List<String> headerlessColumns, String source) {
        this.headerlessColumns = List.copyOf(headerlessColumns);
        this.source = source;
    }

    @Override
    public CsvHeader header(CsvRecord first) {
        List<String> fields = first.fields().stream().map(String::strip).toList();
        boolean isHeader = fields.contains(JtlColumns.TIME_STAMP) || fields.contains(JtlColumns.ELAPSED);
        return isHeader ? new CsvHeader(fields, true) : new CsvHeader(headerlessColumns, false);
    }

    @Override
    public RowMapper mapperFor(CsvHeader header) {
        for (String required : List.of(JtlColumns.TIME_STAMP, JtlColumns.ELAPSED)) {
            if (!header.has(required)) {
                throw new FieldException(required, "a JTL file needs the " + required + " column (columns: "
                        + header.columns() + ")");
            }
        }
        return new JtlRows(header, source);
    }
}
