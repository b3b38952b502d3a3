package dev.caplab.ingest.adapter;

import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.parse.ParseResult;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.parse.SampleChecks.LimitException;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.text.Utf8Bytes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Puts every file adapter behind the door: a line longer than {@link IngestLimits#maxLineBytes()} is rejected before
 * its parser sees it, and every sample a line gives passes {@link SampleChecks} (names, labels, the time window
 * around the line's read time). A sample beyond a limit is dropped and reported with the line that produced it
 * (one error per line, field and reason); the line's other samples and every other line are kept.
 */
public final class CheckedAdapter implements Adapter {

    private final Adapter adapter;
    private final SampleChecks checks;

    public CheckedAdapter(Adapter adapter, SampleChecks checks) {
        this.adapter = Objects.requireNonNull(adapter, "adapter");
        this.checks = Objects.requireNonNull(checks, "checks");
    }

    @Override
    public String format() {
        return adapter.format();
    }

    @Override
    public LineParser newParser() {
        return new Checked(adapter.newParser());
    }

    @Override
    public LineParser newParser(String runId) {
        return new Checked(adapter.newParser(runId));
    }

    /** The wrapped parser, checking what it gives. */
    private final class Checked implements LineParser {

        private final LineParser parser;
        private long lastLine;
        private Instant lastReadAt;

        Checked(LineParser parser) {
            this.parser = parser;
        }

        @Override
        public ParseResult accept(InputLine line) {
            lastLine = line.number();
            lastReadAt = line.readAt();
            try {
                checks.lineLength(Utf8Bytes.of(line.text()));
            } catch (LimitException e) {
                return new ParseResult(List.of(), List.of(new ParseError(line.number(), e.field(), e.reason(),
                        line.text())));
            }
            return checked(parser.accept(line), line.number(), line.readAt());
        }

        @Override
        public ParseResult finish() {
            return checked(parser.finish(), lastLine, lastReadAt != null ? lastReadAt : Instant.now());
        }

        private ParseResult checked(ParseResult result, long lineNumber, Instant now) {
            List<Sample> kept = null;
            Set<ParseError> errors = null;
            List<Sample> samples = result.samples();
            for (int i = 0; i < samples.size(); i++) {
                try {
                    checks.check(samples.get(i), now);
                    if (kept != null) {
                        kept.add(samples.get(i));
                    }
                } catch (LimitException e) {
                    if (kept == null) {
                        kept = new ArrayList<>(samples.subList(0, i));
                        errors = new LinkedHashSet<>(result.errors());
                    }
                    errors.add(new ParseError(lineNumber, e.field(), e.reason(), samples.get(i).getMetric()));
                }
            }
            return kept == null ? result : new ParseResult(kept, List.copyOf(errors));
        }
    }
}
