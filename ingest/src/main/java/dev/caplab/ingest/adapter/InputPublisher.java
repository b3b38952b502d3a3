package dev.caplab.ingest.adapter;

import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.parse.ParseResult;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.publish.SampleSink;
import dev.caplab.schema.event.Sample;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Runs one adapter over one input (a file, stdin, or a file followed while it is written) and publishes the samples
 * in batches, waiting for each batch to be accepted, so that when a method returns everything valid is durable.
 * Rejected lines go to the error listener as {@code origin:line: field: reason} and are counted.
 */
public final class InputPublisher {

    /** Samples handed to the sink per publish: large enough to batch well, small enough to bound memory. */
    public static final int BATCH = 5_000;
    private static final SampleChecks RUN_CHECKS = new SampleChecks(IngestLimits.DEFAULTS);

    /**
     * What one input gave: samples published, lines rejected, and the latest time of a published sample (null when
     * none was published): a file's own end, the time base of its siblings without timestamps (Locust's totals).
     */
    public record Outcome(long samples, long rejected, Instant latestSampleAt) {

        public static final Outcome NONE = new Outcome(0, 0, null);

        public Outcome plus(Outcome other) {
            return new Outcome(samples + other.samples, rejected + other.rejected,
                    latestSampleAt == null || (other.latestSampleAt != null
                            && other.latestSampleAt.isAfter(latestSampleAt)) ? other.latestSampleAt : latestSampleAt);
        }

        public Optional<Instant> latest() {
            return Optional.ofNullable(latestSampleAt);
        }
    }

    private final Adapter adapter;
    private final String runId;
    private final SampleSink sink;
    private final Consumer<String> errors;

    public InputPublisher(Adapter adapter, String runId, SampleSink sink, Consumer<String> errors) {
        this.adapter = Objects.requireNonNull(adapter, "adapter");
        this.runId = Objects.requireNonNull(runId, "runId");
        RUN_CHECKS.name("--run", runId);
        this.sink = Objects.requireNonNull(sink, "sink");
        this.errors = Objects.requireNonNull(errors, "errors");
    }

    /**
     * Reads the input to its end. {@code live}: the input is written while it is read (a pipe from a running tool),
     * so its read time may stand in for a time a line does not carry; a file is not live.
     */
    public Outcome ingest(String origin, BufferedReader reader, boolean live, Clock clock) throws IOException {
        Pending pending = new Pending(origin);
        LineParser parser = adapter.newParser(runId);
        String line;
        long number = 0;
        while ((line = reader.readLine()) != null) {
            pending.add(parser.accept(new InputLine(++number, line, clock.instant(), live)));
            pending.publishIfFull();
        }
        pending.add(parser.finish());
        return pending.publish();
    }

    /**
     * Follows a file until {@code keepGoing} turns false, polling every {@code poll}; a truncated or rotated file
     * gets a fresh parser (its header comes again). The last unterminated line is parsed when following stops.
     */
    public Outcome follow(Path file, Duration poll, BooleanSupplier keepGoing, Clock clock)
            throws IOException, InterruptedException {
        Pending pending = new Pending(file.toString());
        LineParser[] parser = {adapter.newParser(runId)};
        FileFollower.Listener listener = new FileFollower.Listener() {
            @Override
            public void line(InputLine line) {
                pending.add(parser[0].accept(line));
            }

            @Override
            public void restarted(String reason) {
                pending.add(parser[0].finish());
                parser[0] = adapter.newParser(runId);
            }
        };
        try (FileFollower follower = new FileFollower(file, clock)) {
            while (keepGoing.getAsBoolean()) {
                follower.poll(listener);
                pending.publish();
                Thread.sleep(poll.toMillis());
            }
            follower.poll(listener);
            follower.flushPartial(listener);
        }
        pending.add(parser[0].finish());
        return pending.publish();
    }

    /** Samples not yet published and the running totals of one input. */
    private final class Pending {
        private final String origin;
        private final List<Sample> samples = new ArrayList<>();
        private long published;
        private long rejected;
        private Instant latest;

        Pending(String origin) {
            this.origin = origin;
        }

        void add(ParseResult result) {
            samples.addAll(result.samples());
            for (ParseError error : result.errors()) {
                rejected++;
                errors.accept(format(origin, error));
            }
        }

        void publishIfFull() {
            if (samples.size() >= BATCH) {
                publish();
            }
        }

        Outcome publish() {
            if (!samples.isEmpty()) {
                sink.publish(runId, adapter.format(), List.copyOf(samples)).join();
                published += samples.size();
                for (Sample sample : samples) {
                    if (latest == null || sample.getTimestamp().isAfter(latest)) {
                        latest = sample.getTimestamp();
                    }
                }
                samples.clear();
            }
            return new Outcome(published, rejected, latest);
        }
    }

    /** {@code file:line: field: reason}, the form compilers use, so editors can jump to the line. */
    public static String format(String origin, ParseError error) {
        StringBuilder out = new StringBuilder(origin).append(':').append(error.line()).append(": ");
        if (error.field() != null && !error.field().isEmpty()) {
            out.append(error.field()).append(": ");
        }
        out.append(error.reason());
        return out.toString();
    }
}
