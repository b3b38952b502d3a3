package dev.caplab.ingest.publish;

import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.parse.ParseResult;
import dev.caplab.schema.event.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Narrows what a tag-routed parser (line protocol, k6 JSON) made of one file line to the one run a file is ingested
 * into ({@code caplab ingest --run}): a line whose {@code run}/{@code run_id} tag names another run is rejected
 * naming the {@code run} field, never stored under a run the user did not ask for.
 */
public final class RunScopedLines {

    private RunScopedLines() {
    }

    /**
     * The samples of {@code runId} and the line's errors, plus an error for samples of any other run; with a null
     * {@code runId} (no run given) every run's samples.
     */
    public static ParseResult of(RoutedSamples routed, String runId, long lineNumber, String excerpt) {
        List<Sample> samples = new ArrayList<>();
        List<ParseError> errors = new ArrayList<>(routed.errors());
        for (Map.Entry<String, List<Sample>> run : routed.samplesByRun().entrySet()) {
            if (runId == null || run.getKey().equals(runId)) {
                samples.addAll(run.getValue());
            } else {
                errors.add(new ParseError(lineNumber, RunTags.RUN, "names run '" + run.getKey()
                        + "' but this input is ingested into run '" + runId + "': drop the tag or ingest per run",
                        excerpt));
            }
        }
        return new ParseResult(samples, errors);
    }
}
