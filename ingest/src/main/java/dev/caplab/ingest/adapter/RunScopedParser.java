package dev.caplab.ingest.adapter;

import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.parse.ParseResult;
import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.schema.event.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A file's line parser over a tag-routed format (line protocol, k6 JSON), narrowed to the one run the file is
 * ingested into ({@code caplab ingest --run}): a line whose {@code run}/{@code run_id} tag names another run is
 * rejected naming the {@code run} field, never stored under a run the user did not ask for. With no run, every
 * run's samples are kept.
 */
public final class RunScopedParser implements LineParser {

    /** Parses one line into samples routed by run (and its errors, numbered with the line's number). */
    @FunctionalInterface
    public interface LineRouter {
        RoutedSamples parse(InputLine line);
    }

    private final String runId;
    private final LineRouter router;

    public RunScopedParser(String runId, LineRouter router) {
        this.runId = runId;
        this.router = router;
    }

    @Override
    public ParseResult accept(InputLine line) {
        RoutedSamples routed = router.parse(line);
        List<Sample> samples = new ArrayList<>();
        List<ParseError> errors = new ArrayList<>(routed.errors());
        for (Map.Entry<String, List<Sample>> run : routed.samplesByRun().entrySet()) {
            if (runId == null || run.getKey().equals(runId)) {
                samples.addAll(run.getValue());
            } else {
                errors.add(new ParseError(line.number(), "run", "names run '" + run.getKey()
                        + "' but this input is ingested into run '" + runId + "': drop the tag or ingest per run",
                        line.text()));
            }
        }
        return new ParseResult(samples, errors);
    }

    @Override
    public ParseResult finish() {
        return ResultBuilder.none();
    }
}
