package dev.caplab.ingest.adapter;

import dev.caplab.ingest.parse.ParseResult;
import java.time.Instant;

/** One input format (e.g. {@code locust}, {@code docker-stats}): a pure mapping from its text to samples. */
public interface Adapter {

    /** The format name used on the command line and in {@code SampleBatch.adapter}. */
    String format();

    /** A fresh parser for one input stream. */
    LineParser newParser();

    /**
     * A fresh parser for one input stream of the run {@code runId}: formats whose lines name their run (a
     * {@code run} tag) check it against the run being ingested; the others ignore it.
     */
    default LineParser newParser(String runId) {
        return newParser();
    }

    /** Parses a whole document received at {@code readAt} (a scrape, a request body): its lines are read live. */
    default ParseResult parse(String text, Instant readAt) {
        LineParser parser = newParser();
        ResultBuilder result = new ResultBuilder();
        long number = 0;
        int start = 0;
        while (start < text.length()) {
            int end = text.indexOf('\n', start);
            int next = end < 0 ? text.length() : end + 1;
            int stop = end < 0 ? text.length() : end;
            if (stop > start && text.charAt(stop - 1) == '\r') {
                stop--;
            }
            result.add(parser.accept(new InputLine(++number, text.substring(start, stop), readAt, true)));
            start = next;
        }
        result.add(parser.finish());
        return result.build();
    }
}
