package dev.caplab.ingest.parse;

import dev.caplab.schema.event.Sample;
import java.util.List;

/**
 * What an adapter made of one input: every valid sample, and every rejected line with its reason.
 * Valid samples around a bad line are never lost; callers accept the samples and report the errors.
 */
public record ParseResult(List<Sample> samples, List<ParseError> errors) {

    public ParseResult {
        samples = List.copyOf(samples);
        errors = List.copyOf(errors);
    }

    public boolean hasErrors() {
        return !errors.isEmpty();
    }
}
