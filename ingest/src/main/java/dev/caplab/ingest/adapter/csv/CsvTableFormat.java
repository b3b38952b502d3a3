package dev.caplab.ingest.adapter.csv;

import dev.caplab.ingest.adapter.FieldException;

/** What a CSV-with-header format decides once it sees the first record: the columns, then how to map rows. */
public interface CsvTableFormat {

    /** The header: the first record itself ({@code fromInput}) or columns implied for a headerless table. */
    CsvHeader header(CsvRecord first);

    /** The mapper for tables with this header; throws {@link FieldException} when the format cannot read them. */
    RowMapper mapperFor(CsvHeader header);
}
