package dev.caplab.ingest.k6;

import dev.caplab.ingest.adapter.Adapter;
import dev.caplab.ingest.adapter.AdapterOptions;
import dev.caplab.ingest.adapter.LineParser;
import dev.caplab.ingest.adapter.RunScopedParser;
import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.publish.RoutedSamples;
import java.time.Clock;
import java.util.Set;

/** {@code caplab ingest --format k6-json}: a k6 JSON output file through {@link K6JsonParser}, one line at a time. */
public final class K6JsonAdapter implements Adapter {

    public static final String FORMAT = K6JsonParser.ADAPTER;

    private final String source;

    private K6JsonAdapter(String source) {
        this.source = source;
    }

    /** Option {@code source}: source of points without a source or host tag (default {@code k6}). */
    public static K6JsonAdapter of(AdapterOptions options) {
        options.requireKnown(FORMAT, Set.of("source"), Set.of());
        return new K6JsonAdapter(options.text("source", null));
    }

    @Override
    public String format() {
        return FORMAT;
    }

    /** Without a run, points need a run tag and are kept whatever run it names. */
    @Override
    public LineParser newParser() {
        return newParser(null);
    }

    @Override
    public LineParser newParser(String runId) {
        K6JsonParser parser = new K6JsonParser(runId, source, new SampleChecks(IngestLimits.DEFAULTS),
                Clock.systemUTC());
        return new RunScopedParser(runId, line -> {
            RoutedSamples.Builder out = new RoutedSamples.Builder();
            parser.parseLine(line.text(), line.number(), out);
            return out.build();
        });
    }
}
