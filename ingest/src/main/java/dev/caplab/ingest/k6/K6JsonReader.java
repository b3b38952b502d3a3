package dev.caplab.ingest.k6;

import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.ingest.publish.SampleSink;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.zip.GZIPInputStream;

/**
 * Streams a k6 JSON output (file, stdin or request body; gzip detected by its magic bytes, as k6 writes
 * {@code --out json=results.gz}) into a sink, publishing every {@value #LINES_PER_PUBLISH} lines so a large file
 * never sits in memory. Returns every rejected line; all others are published before it returns.
 */
public final class K6JsonReader {

    static final int LINES_PER_PUBLISH = 10_000;

    private final SampleSink sink;

    public K6JsonReader(SampleSink sink) {
        this.sink = sink;
    }

    /** Reads to the end; throws when Kafka did not acknowledge, so the caller never reports unpublished data. */
    public Outcome read(InputStream input, String defaultRunId, String defaultSource) throws IOException {
        K6JsonParser parser = new K6JsonParser(defaultRunId, defaultSource);
        List<ParseError> errors = new ArrayList<>();
        long samples = 0;
        List<CompletableFuture<Void>> pending = new ArrayList<>();
        try (BufferedReader lines = lines(input)) {
            RoutedSamples.Builder chunk = new RoutedSamples.Builder();
            long lineNumber = 0;
            int inChunk = 0;
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                parser.parseLine(line, ++lineNumber, chunk);
                if (++inChunk == LINES_PER_PUBLISH) {
                    samples += publish(chunk.build(), errors, pending);
                    chunk = new RoutedSamples.Builder();
                    inChunk = 0;
                }
            }
            samples += publish(chunk.build(), errors, pending);
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).join();
        return new Outcome(samples, errors);
    }

    /**
     * Parses a whole input into {@code out} (samples and rejected lines) without publishing anything, so a request
     * can be checked whole and then published atomically.
     */
    public static void parseAll(InputStream input, K6JsonParser parser, RoutedSamples.Builder out)
            throws IOException {
        try (BufferedReader lines = lines(input)) {
            long lineNumber = 0;
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                parser.parseLine(line, ++lineNumber, out);
            }
        }
    }

    private static BufferedReader lines(InputStream input) throws IOException {
        return new BufferedReader(new InputStreamReader(maybeGunzip(input), StandardCharsets.UTF_8), 256 * 1024);
    }

    private long publish(RoutedSamples routed, List<ParseError> errors, List<CompletableFuture<Void>> pending) {
        errors.addAll(routed.errors());
        pending.add(routed.publishTo(sink, K6JsonParser.ADAPTER));
        // bound what is in flight: wait for the oldest chunk once a few are outstanding
        if (pending.size() > 4) {
            pending.removeFirst().join();
        }
        return routed.sampleCount();
    }

    private static InputStream maybeGunzip(InputStream input) throws IOException {
        BufferedInputStream buffered = new BufferedInputStream(input, 64 * 1024);
        buffered.mark(2);
        int b0 = buffered.read();
        int b1 = buffered.read();
        buffered.reset();
        return b0 == 0x1f && b1 == 0x8b ? new GZIPInputStream(buffered, 64 * 1024) : buffered;
    }

    /** How many samples were published and which lines were rejected. */
    public record Outcome(long samplesPublished, List<ParseError> errors) {

        public Outcome {
            errors = List.copyOf(errors);
        }
    }
}
