package dev.caplab.ingest.adapter;

import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.parse.ParseResult;
import dev.caplab.schema.event.Sample;
import java.util.ArrayList;
import java.util.List;

/** Collects the samples and errors of one parse step; adapters build one {@link ParseResult} per line or document. */
public final class ResultBuilder {

    private final List<Sample> samples = new ArrayList<>();
    private final List<ParseError> errors = new ArrayList<>();

    public ResultBuilder sample(Sample sample) {
        samples.add(sample);
        return this;
    }

    public ResultBuilder error(long line, String field, String reason, String excerpt) {
        errors.add(new ParseError(line, field, reason, excerpt));
        return this;
    }

    public ResultBuilder add(ParseResult result) {
        samples.addAll(result.samples());
        errors.addAll(result.errors());
        return this;
    }

    public ParseResult build() {
        return new ParseResult(samples, errors);
    }

    /** The empty result, for lines that only carry state (headers, blank lines). */
    public static ParseResult none() {
        return new ParseResult(List.of(), List.of());
    }
}
