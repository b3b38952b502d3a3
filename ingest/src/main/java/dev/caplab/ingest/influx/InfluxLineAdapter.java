package dev.caplab.ingest.influx;

import dev.caplab.ingest.adapter.Adapter;
import dev.caplab.ingest.adapter.AdapterOptions;
import dev.caplab.ingest.adapter.LineParser;
import dev.caplab.ingest.adapter.RunScopedParser;
import dev.caplab.ingest.adapter.UndatedRows;
import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.publish.RoutedSamples;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code caplab ingest --format influx-line}: a line-protocol file through {@link LineProtocolParser}, one line at a
 * time (so a string field may not span lines here). Option {@code precision} as {@code /write}'s (default ns);
 * option {@code at}: the time of lines without a timestamp ({@link UndatedRows}; a file's read time never is).
 */
public final class InfluxLineAdapter implements Adapter {

    public static final String FORMAT = "influx-line";

    private final TimestampPrecision precision;
    private final UndatedRows undated;

    private InfluxLineAdapter(TimestampPrecision precision, UndatedRows undated) {
        this.precision = precision;
        this.undated = undated;
    }

    public static InfluxLineAdapter of(AdapterOptions options) {
        options.requireKnown(FORMAT, Set.of("precision", UndatedRows.OPTION), Set.of());
        return new InfluxLineAdapter(TimestampPrecision.fromParameter(options.text("precision", null)),
                UndatedRows.of(FORMAT, options));
    }

    @Override
    public String format() {
        return FORMAT;
    }

    /** Without a run, lines need a run tag and are kept whatever run it names. */
    @Override
    public LineParser newParser() {
        return newParser(null);
    }

    @Override
    public LineParser newParser(String runId) {
        LineProtocolParser parser = new LineProtocolParser();
        return new RunScopedParser(runId, line -> {
            byte[] bytes = line.text().getBytes(StandardCharsets.UTF_8);
            RoutedSamples routed = parser.parse(bytes, 0, bytes.length, precision, runId, line.readAt(),
                    () -> undated.timeOf(line));
            // the parser numbers lines from 1 within what it was given: renumber to the file's line
            List<ParseError> errors = new ArrayList<>(routed.errors().stream()
                    .map(e -> new ParseError(line.number(), e.field(), e.reason(), e.excerpt())).toList());
            // a file publishes samples only; an annotation reaches the run through /write or caplab's events API
            routed.annotations().forEach(a -> errors.add(new ParseError(line.number(), "text",
                    "an annotation line: send it to /write or POST /api/v1/events, files carry samples only",
                    line.text())));
            return new RoutedSamples(routed.samplesByRun(), errors);
        });
    }
}
