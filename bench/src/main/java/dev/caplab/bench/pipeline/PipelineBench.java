package dev.caplab.bench.pipeline;

import dev.caplab.app.up.EmbeddedStack;
import dev.caplab.app.up.UpSettings;
import dev.caplab.bench.ingest.InfluxdProcess;
import dev.caplab.app.load.WriteClients;
import dev.caplab.streams.TopologySettings;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * End to end on the embedded default ({@code caplab up} without demo data): k6-like line protocol over HTTP
 * {@code /write} plus step events over {@code /api/v1/events} → Kafka → Streams (step assignment, aggregation,
 * verdicts, fits, exactly_once_v2) → sink → ClickHouse (chDB), for several stepped runs in parallel. Reports
 * sustained samples/s (first request to the last sample stored and every step aggregate complete), the delay from
 * a sample's acknowledged arrival to its step's aggregate being complete in ClickHouse (p50/p99/max, per sample and
 * per step from its last sample), and the peak heap of the JVM that runs the whole stack. Then writes the same
 * line-protocol bodies, with the same client concurrency, to InfluxDB 1.6 as the reference ratio.
 * Arguments: [samples=5000000] [runs=10] [steps=5] [linesPerBatch=5000] [clients=2].
 */
public final class PipelineBench {

    private static final String TOKEN = "bench-token-0123456789abcdef";
    private static final Instant RUN_START = Instant.parse("2024-03-01T08:00:00Z");
    private static final Duration STEP_LENGTH = Duration.ofSeconds(60);
    private static final String PREFIX = "bench-";

    private PipelineBench() {
    }

    public static void main(String[] args) throws Exception {
        long samples = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000L;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int steps = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        int linesPerBatch = args.length > 3 ? Integer.parseInt(args[3]) : 5_000;
        int clients = args.length > 4 ? Integer.parseInt(args[4]) : 2;
        long perStep = samples / ((long) runs * steps);
        if (perStep * runs * steps != samples || perStep % linesPerBatch != 0) {
            throw new IllegalArgumentException("samples must split into runs × steps × whole batches of "
                    + linesPerBatch + " lines; got " + samples + " over " + runs + " runs of " + steps + " steps");
        }
        List<SteppedRunScript> scripts = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
            scripts.add(SteppedRunScript.of(PREFIX + r, RUN_START, steps, STEP_LENGTH, perStep, linesPerBatch));
        }
        Path dir = Files.createTempDirectory("caplab-pipeline-bench");
        System.out.printf(Locale.ROOT, "%d samples: %d runs × %d steps × %d samples, batches of %d lines, %d clients;"
                + " step grace %d s (default)%n", samples, runs, steps, perStep, linesPerBatch, clients,
                TopologySettings.defaults().grace().toSeconds());

        PipelineFigures caplab;
        try (EmbeddedStack stack = EmbeddedStack.start(new UpSettings(dir.resolve("caplab"), "127.0.0.1", 0, 0, 0,
                false, null, List.of(TOKEN + "=read,write")), new PrintStream(System.out))) {
            Target target = new Target(URI.create("http://127.0.0.1:" + stack.httpPort()), "Bearer " + TOKEN);
            warmUp(target, stack.clickhouseJdbcUrl(), linesPerBatch);
            caplab = measure(target, stack.clickhouseJdbcUrl(), scripts, steps, clients);
        }
        caplab.print(System.out);
        StateBytes state = StateBytes.of(dir.resolve("caplab"));
        state.print(System.out, caplab.samples());

        List<byte[]> bodies = interleavedLines(scripts);
        WriteClients.Result influx = InfluxdProcess.writeAll(dir.resolve("influxdb"), bodies, linesPerBatch, clients);
        System.out.printf(Locale.ROOT, "InfluxDB 1.6 /write of the same bodies: %,.0f samples/s (%d in %.1f s)%n",
                influx.pointsPerSecond(), influx.points(), influx.elapsed().toMillis() / 1000.0);
        System.out.printf(Locale.ROOT, "ratio caplab end-to-end / InfluxDB write: %.2f%n",
                caplab.samplesPerSecond() / influx.pointsPerSecond());
        System.out.printf(Locale.ROOT, "ratio caplab /write with streams and sink running / InfluxDB write: %.2f%n",
                caplab.ingestSamplesPerSecond() / influx.pointsPerSecond());
        System.out.println("data left in " + dir + " (delete it when done)");
    }

    /** Where the stack's HTTP tier listens and how to authenticate. */
    record Target(URI base, String authorization) {
    }

    /** One small run through every stage first, so class loading and JIT are not billed to the measured runs. */
    private static void warmUp(Target target, String jdbcUrl, int linesPerBatch) throws Exception {
        SteppedRunScript warm = SteppedRunScript.of("warm-0", RUN_START, 2, STEP_LENGTH, 10L * linesPerBatch,
                linesPerBatch);
        try (AggregateWatcher watcher = AggregateWatcher.start(jdbcUrl, TOKEN, "warm-", 200)) {
            send(target, List.of(warm), 1, new BatchLog(warm.requests().size()));
            long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            while (watcher.storedSamples() < warm.samples() || watcher.step("warm-0", 0) == null) {
                watcher.check();
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("warm-up run not through the pipeline in 3 min: "
                            + watcher.storedSamples() + " of " + warm.samples() + " samples stored");
                }
                Thread.sleep(200);
            }
        }
    }

    private static PipelineFigures measure(Target target, String jdbcUrl, List<SteppedRunScript> scripts,
            int steps, int clients) throws Exception {
        long samples = scripts.stream().mapToLong(SteppedRunScript::samples).sum();
        BatchLog log = new BatchLog(scripts.stream().mapToInt(s -> s.requests().size()).sum());
        try (AggregateWatcher watcher = AggregateWatcher.start(jdbcUrl, TOKEN, PREFIX, 100)) {
            CpuAccount cpu = CpuAccount.start();
            long started = System.nanoTime();
            send(target, scripts, clients, log);
            long lastAck = System.nanoTime();
            long samplesStoredAt = -1;
            long deadline = lastAck + Duration.ofMinutes(30).toNanos();
            while (true) {
                watcher.check();
                long now = System.nanoTime();
                if (samplesStoredAt < 0 && watcher.storedSamples() >= samples) {
                    samplesStoredAt = now;
                }
                long lastChange = lastChange(watcher, scripts, steps);
                // Complete: every sample stored, every step has aggregates, none changed for 3 s.
                if (samplesStoredAt >= 0 && lastChange > 0 && now - lastChange > Duration.ofSeconds(3).toNanos()) {
                    if (watcher.storedSamples() != samples) {
                        throw new IllegalStateException("stored " + watcher.storedSamples() + " samples, sent "
                                + samples);
                    }
                    cpu.print(System.out, samples);
                    return PipelineFigures.of(samples, started, lastAck, samplesStoredAt,
                            Math.max(samplesStoredAt, lastChange), log,
                            (run, step) -> watcher.step(run, step).changedNanos(),
                            new PipelineFigures.Heap(watcher.peakHeapBytes(), watcher.peakHeapAfterGcBytes(),
                                    Runtime.getRuntime().maxMemory()));
                }
                if (now > deadline) {
                    throw new IllegalStateException("pipeline not done 30 min after the last request: "
                            + watcher.storedSamples() + " of " + samples + " samples stored, "
                            + watcher.stepsSeen() + " of " + scripts.size() * steps + " steps aggregated");
                }
                Thread.sleep(100);
            }
        }
    }

    /** When the last step aggregate changed, or 0 while some step has none yet. */
    private static long lastChange(AggregateWatcher watcher, List<SteppedRunScript> scripts, int steps) {
        long last = 0;
        for (SteppedRunScript script : scripts) {
            for (int step = 0; step < steps; step++) {
                AggregateWatcher.StepSeen seen = watcher.step(script.runId(), step);
                if (seen == null) {
                    return 0;
                }
                last = Math.max(last, seen.changedNanos());
            }
        }
        return last;
    }

    /**
     * Every run's requests in order, runs in parallel (one virtual thread each), at most {@code clients} requests in
     * flight; each sample batch's acknowledgement time goes to the log.
     */
    private static void send(Target target, List<SteppedRunScript> scripts, int clients, BatchLog log)
            throws InterruptedException {
        HttpClient http = WriteClients.newClient();
        Semaphore inFlight = new Semaphore(clients);
        AtomicReference<Exception> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (SteppedRunScript script : scripts) {
            threads.add(Thread.ofVirtual().name(script.runId()).start(() -> {
                URI write = target.base().resolve("/write?db=" + script.runId() + "&precision=ns");
                URI events = target.base().resolve("/api/v1/events");
                for (SteppedRunScript.Request request : script.requests()) {
                    if (failure.get() != null) {
                        return;
                    }
                    try {
                        inFlight.acquire();
                        try {
                            if (request.lines()) {
                                WriteClients.post(http, write, request.body(), null, target.authorization(), 204,
                                        script.runId() + " step " + request.step() + " batch");
                                log.acked(script.runId(), request.step(), request.samples(), System.nanoTime());
                            } else {
                                WriteClients.post(http, events, request.body(), "application/json",
                                        target.authorization(), 202, script.runId() + " events");
                            }
                        } finally {
                            inFlight.release();
                        }
                    } catch (Exception e) {
                        failure.compareAndSet(null, e);
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("sending failed: " + failure.get().getMessage(), failure.get());
        }
    }

    /** The line-protocol bodies of all runs, taken round-robin, as the runs' parallel clients would send them. */
    private static List<byte[]> interleavedLines(List<SteppedRunScript> scripts) {
        List<List<byte[]>> perRun = scripts.stream().map(s -> s.requests().stream()
                .filter(SteppedRunScript.Request::lines).map(SteppedRunScript.Request::body).toList()).toList();
        List<byte[]> out = new ArrayList<>();
        int longest = perRun.stream().mapToInt(List::size).max().orElse(0);
        for (int i = 0; i < longest; i++) {
            for (List<byte[]> run : perRun) {
                if (i < run.size()) {
                    out.add(run.get(i));
                }
            }
        }
        return out;
    }
}
