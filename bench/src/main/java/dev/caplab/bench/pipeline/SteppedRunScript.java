package dev.caplab.bench.pipeline;

import dev.caplab.app.load.K6LikeLines;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What one load generator sends for a stepped run, in order: run start and step events as JSON to
 * {@code /api/v1/events}, k6-like line-protocol batches to {@code /write}, each step's samples spread evenly over
 * its event-time span. Event time is compressed (the bench posts as fast as the pipeline takes it), so the run's
 * own timestamps, not the wall clock, decide where steps begin and end.
 */
record SteppedRunScript(String runId, List<Request> requests) {

    static final boolean ALL_SAMPLES_SENT = Boolean.parseBoolean(System.getProperty("bench.allSamplesSent", "true"));

    /**
     * One HTTP request of the script; {@code step} and {@code samples} are set for sample batches only. The body is
     * kept off the heap and out of the direct-memory limit ({@link BodyFile}): the bench runs in the stack's JVM, and
     * 5,000,000 lines (about 1.1 GB) held on the heap for the whole pass would be billed to the stack's "peak heap
     * after GC", held in native segments to its direct buffers.
     */
    record Request(boolean lines, MemorySegment bytes, int step, int samples) {

        Request(boolean lines, byte[] body, int step, int samples) {
            this(lines, BodyFile.copyOf(body), step, samples);
        }

        /** A fresh on-heap copy of the body, for the request being sent. */
        byte[] body() {
            return bytes.toArray(ValueLayout.JAVA_BYTE);
        }
    }

    SteppedRunScript {
        requests = List.copyOf(requests);
    }

    static SteppedRunScript of(String runId, Instant start, int steps, Duration stepLength, long samplesPerStep,
            int linesPerBatch) {
        List<Request> out = new ArrayList<>();
        long stepNanos = stepLength.toNanos();
        long spacing = Math.max(1, stepNanos / samplesPerStep);
        long startNanos = start.getEpochSecond() * 1_000_000_000L + start.getNano();
        out.add(events(runId, runStarted(runId, start) + "," + stepStarted(runId, 0, start)));
        for (int step = 0; step < steps; step++) {
            long stepStart = startNanos + step * stepNanos;
            long line = (long) step * samplesPerStep;
            for (long sent = 0; sent < samplesPerStep; sent += linesPerBatch) {
                int count = (int) Math.min(linesPerBatch, samplesPerStep - sent);
                // Line i of the step is stamped stepStart + (i - first line of step) * spacing.
                out.add(new Request(true, K6LikeLines.batch(runId, line + sent, count,
                        stepStart - line * spacing, spacing), step, count));
            }
            Instant end = start.plus(stepLength.multipliedBy(step + 1));
            String next = step + 1 < steps ? "," + stepStarted(runId, step + 1, end) : "," + runEnded(runId, end);
            out.add(events(runId, stepEnded(runId, step, end) + next));
        }
        return new SteppedRunScript(runId, out);
    }

    long samples() {
        return requests.stream().mapToLong(Request::samples).sum();
    }

    private static Request events(String runId, String events) {
        String body = "{\"runId\":\"" + runId + "\",\"adapter\":\"pipeline-bench\",\"events\":[" + events + "]}";
        return new Request(false, body.getBytes(StandardCharsets.UTF_8), -1, 0);
    }

    private static String runStarted(String runId, Instant at) {
        return String.format(Locale.ROOT, "{\"type\":\"run_started\",\"runId\":\"%s\",\"sut\":\"bench-sut\","
                + "\"tool\":\"k6\",\"loadExpression\":\"users\",\"startedAt\":\"%s\"}", runId, at);
    }

    private static String stepStarted(String runId, int index, Instant at) {
        return String.format(Locale.ROOT, "{\"type\":\"step_started\",\"runId\":\"%s\",\"index\":%d,"
                + "\"load\":{\"users\":%d},\"warmupSeconds\":5,\"startedAt\":\"%s\"}", runId, index,
                25 * (index + 1), at);
    }

    private static String stepEnded(String runId, int index, Instant at) {
        return String.format(Locale.ROOT, "{\"type\":\"step_ended\",\"runId\":\"%s\",\"index\":%d,\"endedAt\":\"%s\"}",
                runId, index, at);
    }

    // The run's requests go one after another, each after the last one's acknowledgement, so when it ends every
    // sample was acknowledged: it can say so (-Dbench.allSamplesSent=false: a client that does not, the last step
    // then waits the grace).
    private static String runEnded(String runId, Instant at) {
        return String.format(Locale.ROOT, "{\"type\":\"run_ended\",\"runId\":\"%s\",\"endedAt\":\"%s\","
                + "\"allSamplesSent\":%s}", runId, at, ALL_SAMPLES_SENT);
    }
}
