package dev.caplab.query.web;

import java.util.List;

/** A response that is more than a table (warnings, context) but whose CSV form is its rows. */
public interface TabularResponse {

    /** The rows, all of one record type, written one per CSV line. */
    List<? extends Record> rows();

    /** The row type, so an empty table still gets its CSV header. */
    Class<? extends Record> rowType();
}
