package dev.caplab.ingest.adapter;

import dev.caplab.ingest.parse.ParseResult;

/**
 * The state of parsing one input stream, fed line by line so that files, stdin and followed files share one path.
 * Not thread-safe: one parser per stream, created by {@link Adapter#newParser()}.
 */
public interface LineParser {

    /** Parses one line; formats that need the whole document buffer it and answer an empty result until {@link #finish()}. */
    ParseResult accept(InputLine line);

    /** The input ended: returns what was buffered, and an error for anything left incomplete (a truncated record). */
    ParseResult finish();
}
