package dev.caplab.ingest.adapter.csv;

import dev.caplab.ingest.adapter.ResultBuilder;

/** Turns one CSV data row into samples; throws {@link dev.caplab.ingest.adapter.FieldException} for a bad value. */
@FunctionalInterface
public interface RowMapper {

    void map(CsvRow row, ResultBuilder out);
}
