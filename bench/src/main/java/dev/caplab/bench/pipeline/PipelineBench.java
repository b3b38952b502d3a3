package dev.caplab.bench.pipeline;

import dev.caplab.app.cli.ClickHouseTarget;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * End to end on the embedded default ({@code caplab up} without demo data): k6-like line protocol over HTTP
 * {@code /write} plus step events over {@code /api/v1/events} → Kafka → Streams (step assignment, aggregation,
 * verdicts, fits, exactly_once_v2) → sink → ClickHouse (chDB), for several stepped runs in parallel. Reports
 * sustained samples/s (first request to the last sample stored and every step aggregate complete), the delay from
 * a sample's acknowledged arrival to its step's aggregate being complete in ClickHouse (p50/p99/max, per sample and
 * per step from its last sample), and the peak heap of the JVM that runs the whole stack. Then writes the same
 * line-protocol bodies, with the same client concurrency, to InfluxDB 1.6 as the reference ratio.
 * Arguments: [samples=5000000] [runs=10] [steps=5] [linesPerBatch=5000] [clients=2] [pace=full].
 *
 * <p>{@code pace}: {@code full} posts as fast as the stack acknowledges, with event time compressed (60 s steps);
 * a number paces the sample batches at that many samples/s with event time running at the wall clock's pace (each
 * step's event-time length is its sending time), as a live test would send; {@code half} does a full pass, then a
 * paced pass of fresh runs at half of the full pass's sustained rate on the same stack: the "p99 delay at
 * half the maximum sustained rate" (bench/README.md says which delay is which).
 */
public final class PipelineBench {

    private static final String TOKEN = "bench-token-0123456789abcdef";
    private static final Instant RUN_START = Instant.parse("2024-03-01T08:00:00Z");
    private static final Duration FULL_STEP_LENGTH = Duration.ofSeconds(60);
    private static final String PREFIX = "bench-";
    private static final String PACED_PREFIX = "paced-";
    /**
     * Runs of the warm-up, each as many steps as the measured runs and 20 batches in all ({@code -Dbench.warmRuns=N});
     * 60 runs are 6,000,000 samples in 1,200 requests at 5,000 lines (see {@link #warmUp}). The pass is to measure
     * the pace of a {@code caplab up} that has been running, as a load test's pipeline has: after 2,000,000 samples
     * (the default until 2026-12-05, {@code -Dbench.warmRuns=20}) the JIT still compiled code reached for the first
     * time in the pass, 2.4-3.4 µs of the stack's CPU per sample; after 6,000,000, 1.1 (bench/README.md).
     */
    private static final int WARM_RUNS = Integer.getInteger("bench.warmRuns", 60);
    /**
     * Small requests in the warm-up ({@code -Dbench.warmSmallRequests=N}, 0 for none), of {@link #WARM_SMALL_LINES}
     * lines each, in 20 runs of their own. What C2 compiles is decided by call counts (HotSpot's tier-4 thresholds:
     * 5,000 invocations, or 15,000 with loops), so code run once per request (Tomcat, Spring's dispatch, the
     * producer's and the broker's request handling) still crossed them during the measured pass after the 1,200
     * requests of {@link #WARM_RUNS}: ~600 compilations and 4-6 s of compile time in a 2M pass (-XX:+PrintCompilation,
     * 2026-12-06), 1.5 µs/sample of the stack's ~11. 10,000 small requests carry those paths past the thresholds
     * for 100,000 samples, as hours of a running {@code caplab up} would.
     */
    private static final int WARM_SMALL_REQUESTS = Integer.getInteger("bench.warmSmallRequests", 10_000);
    private static final int WARM_SMALL_LINES = 10;
    private static final int WARM_SMALL_RUNS = 20;
    /** At most this many settling rounds after the warm-up ({@link #settle}). */
    private static final int SETTLE_ROUNDS = Integer.getInteger("bench.settleRounds", 4);
    private static final long SETTLE_SAMPLES = 1_000_000;
    private static final int SETTLE_RUNS = 10;
    private static final long SETTLED_COMPILE_MILLIS = 1_000;
    // Each poll is a reader query on the measured stack (chDB spends ~7 ms of CPU on one, bench/README.md): at 100 ms
    // the watcher itself took ~2 µs of the stack's ~18 µs per sample. 250 ms costs 2.5× less; a step's completion is
    // seen up to one poll late, which the delays include.
    private static final int POLL_MILLIS = Integer.getInteger("bench.pollMillis", 250);
    /** How long the bench waits at most for the JIT's queue to drain after the warm-up ({@link JitQuiescence}). */
    private static final Duration JIT_WAIT_LIMIT = Duration.ofMinutes(3);

    private PipelineBench() {
    }

    public static void main(String[] args) throws Exception {
        long samples = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000L;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int steps = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        int linesPerBatch = args.length > 3 ? Integer.parseInt(args[3]) : 5_000;
        int clients = args.length > 4 ? Integer.parseInt(args[4]) : 2;
        String pace = args.length > 5 ? args[5] : "full";
        long perStep = samples / ((long) runs * steps);
        if (perStep * runs * steps != samples || perStep % linesPerBatch != 0) {
            throw new IllegalArgumentException("samples must split into runs × steps × whole batches of "
                    + linesPerBatch + " lines; got " + samples + " over " + runs + " runs of " + steps + " steps");
        }
        boolean full = pace.equals("full") || pace.equals("half");
        double fixedRate = full ? 0 : Double.parseDouble(pace);
        Path dir = Files.createTempDirectory("caplab-pipeline-bench");
        System.out.printf(Locale.ROOT, "%d samples: %d runs × %d steps × %d samples, batches of %d lines, %d clients,"
                + " pace %s; step grace %d s (default)%n", samples, runs, steps, perStep, linesPerBatch, clients, pace,
                TopologySettings.defaults().grace().toSeconds());

        List<SteppedRunScript> scripts = full ? scripts(PREFIX, runs, steps, perStep, linesPerBatch,
                FULL_STEP_LENGTH) : scripts(PACED_PREFIX, runs, steps, perStep, linesPerBatch,
                pacedStepLength(perStep * runs, fixedRate));
        PipelineFigures caplab;
        PipelineFigures paced = null;
        long warmSamples;
        UpSettings settings = new UpSettings(dir.resolve("caplab"), "127.0.0.1", 0, 0, 0, false, null,
                List.of(TOKEN + "=read,write"));
        settings = settings.withBackgroundNice(Integer.getInteger("bench.backgroundNice", settings.backgroundNice()));
        settings = settings.withSinkWorkers(Integer.getInteger("bench.sinkWorkers", settings.sinkWorkers()));
        System.out.printf(Locale.ROOT, "background threads at nice %d (caplab up's --background-nice;"
                + " -Dbench.backgroundNice=0 runs them at ingest's priority); %d sink workers (--sink-workers,"
                + " -Dbench.sinkWorkers)%n", settings.backgroundNice(), settings.sinkWorkers());
        try (EmbeddedStack stack = EmbeddedStack.start(settings, new PrintStream(System.out))) {
            Target target = new Target(URI.create("http://127.0.0.1:" + stack.httpPort()), "Bearer " + TOKEN);
            warmSamples = warmUp(target, stack.internalClickhouse(), steps, linesPerBatch, clients);
            if (!System.getProperty("bench.jit", "wait").equals("nowait")) {
                JitQuiescence.await(JIT_WAIT_LIMIT, System.out);
                warmSamples += settle(target, stack.internalClickhouse(), steps, linesPerBatch, clients);
            }
            caplab = measure(target, stack.internalClickhouse(), scripts, steps, clients, fixedRate);
            caplab.print(System.out);
            if (pace.equals("half")) {
                double rate = caplab.sustainedSamplesPerSecond() / 2;
                System.out.printf(Locale.ROOT, "paced pass: fresh runs at half the sustained rate, %,.0f samples/s,"
                        + " event time at the wall clock's pace%n", rate);
                paced = measure(target, stack.internalClickhouse(), scripts(PACED_PREFIX, runs, steps, perStep,
                        linesPerBatch, pacedStepLength(perStep * runs, rate)), steps, clients, rate);
                paced.print(System.out);
            }
        }
        StateBytes state = StateBytes.of(dir.resolve("caplab"));
        // the state holds the warm-up's runs too
        state.print(System.out, warmSamples + caplab.samples() + (paced == null ? 0 : paced.samples()));

        List<byte[]> bodies = interleavedLines(scripts);
        WriteClients.Result influx = InfluxdProcess.writeAll(dir.resolve("influxdb"), bodies, linesPerBatch, clients);
        System.out.printf(Locale.ROOT, "InfluxDB 1.6 /write of the same bodies: %,.0f samples/s (%d in %.1f s)%n",
                influx.pointsPerSecond(), influx.points(), influx.elapsed().toMillis() / 1000.0);
        System.out.printf(Locale.ROOT, "ratio caplab end-to-end / InfluxDB write: %.2f (%s)%n",
                caplab.samplesPerSecond() / influx.pointsPerSecond(), SteppedRunScript.ALL_SAMPLES_SENT
                        ? "each run's RunEnded says allSamplesSent: its last step closes at once"
                        : "RunEnded without allSamplesSent: each run's last step waits the grace");
        System.out.printf(Locale.ROOT, "ratio caplab sustained (end to end less the last step's wall-clock grace)"
                + " / InfluxDB write: %.2f%n", caplab.sustainedSamplesPerSecond() / influx.pointsPerSecond());
        System.out.printf(Locale.ROOT, "ratio caplab /write with streams and sink running / InfluxDB write: %.2f%n",
                caplab.ingestSamplesPerSecond() / influx.pointsPerSecond());
        System.out.println("data left in " + dir + " (delete it when done)");
    }

    private static List<SteppedRunScript> scripts(String prefix, int runs, int steps, long perStep, int linesPerBatch,
            Duration stepLength) {
        List<SteppedRunScript> scripts = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
            scripts.add(SteppedRunScript.of(prefix + r, RUN_START, steps, stepLength, perStep, linesPerBatch));
        }
        return scripts;
    }

    /** A step's event-time length when its samples (all runs together) are sent at {@code rate}: whole seconds. */
    private static Duration pacedStepLength(long samplesPerStepAllRuns, double rate) {
        long seconds = (long) Math.ceil(samplesPerStepAllRuns / rate);
        if (seconds <= 5) {
            throw new IllegalArgumentException("a paced step of " + samplesPerStepAllRuns + " samples at " + rate
                    + " samples/s lasts " + seconds + " s, not longer than its 5 s warm-up: send more samples");
        }
        return Duration.ofSeconds(seconds);
    }

    /** Where the stack's HTTP tier listens and how to authenticate. */
    record Target(URI base, String authorization) {
    }

    /**
     * A pass through every stage first ({@link #WARM_RUNS} runs of {@code steps} steps, 100,000 samples each at 5,000
     * lines a batch), so class loading and most JIT compilation are not billed to the measured runs. Its runs have the
     * measured runs' steps and it waits until their last steps are aggregated: with runs of 2 steps, closed a grace
     * after the warm-up, the fits and conclusions of 5 points (segmented regression, knees) ran for the first time
     * in the measured pass. What decides whether a
     * method reaches C2 is how often it is called, and much of the stack (HTTP, Kafka producer and fetch, sink, JDBC)
     * is called per request or per batch, not per sample: after the former warm-up of 400,000 samples (80 requests)
     * those paths were still in C1's profiled tier 3 and were compiled by C2 during the measured pass, which both
     * billed the compilation (5.5-6.9 µs/sample) and ran the pass on slower, profiling code. 2,000,000 samples
     * (400 requests) and waiting for the compile queue ({@link JitQuiescence}) cut the stack's CPU from 27.2 to
     * 19.2 µs/sample at the same load (bench/README.md). It sends with the pass's {@code clients}, so group
     * commit's queueing and Tomcat's pool are exercised as in the pass. Returns the number of samples it sent.
     */
    private static long warmUp(Target target, ClickHouseTarget clickhouse, int steps, int linesPerBatch,
            int clients) throws Exception {
        List<SteppedRunScript> warm = new ArrayList<>();
        long batchesPerStep = Math.max(1, 20 / steps);
        for (int r = 0; r < WARM_RUNS; r++) {
            warm.add(SteppedRunScript.of("warm-" + r, RUN_START, steps, FULL_STEP_LENGTH,
                    batchesPerStep * linesPerBatch, linesPerBatch));
        }
        long smallPerStep = (long) WARM_SMALL_REQUESTS / (WARM_SMALL_RUNS * steps) * WARM_SMALL_LINES;
        for (int r = 0; smallPerStep > 0 && r < WARM_SMALL_RUNS; r++) {
            warm.add(SteppedRunScript.of("warm-small-" + r, RUN_START, steps, FULL_STEP_LENGTH, smallPerStep,
                    WARM_SMALL_LINES));
        }
        return runThrough(target, clickhouse, "warm-", warm, steps, clients);
    }

    /**
     * Rounds of the pass's own request shape (its lines per request and clients; {@link #SETTLE_SAMPLES} samples,
     * at least 200 and at most 2,000 requests) after the warm-up, each followed by a wait for the JIT's queue, until
     * a round costs the compiler less than {@link #SETTLED_COMPILE_MILLIS} ({@code -Dbench.settleRounds=N} rounds at
     * most, 0 for none). HotSpot scales its compile thresholds up while the C2 queue is long (Tier4LoadFeedback),
     * so during the busy warm-up hot per-request methods stayed in tier 3 and were promoted only when called again:
     * in the measured pass, once the queue had drained. A {@code 500 8} pass spent 15 s of compile time in 19 s
     * (JFR {@code jdk.Compilation}: Spring's {@code invokeHandlerMethod}, Kafka's transaction-marker and produce
     * paths, each first compiled by C2 in the pass) after 25,000 warm-up requests. Returns the samples it sent.
     */
    private static long settle(Target target, ClickHouseTarget clickhouse, int steps, int linesPerBatch,
            int clients) throws Exception {
        long requests = Math.clamp(SETTLE_SAMPLES / linesPerBatch, 200, 2_000);
        long batchesPerStep = Math.max(1, requests / (SETTLE_RUNS * steps));
        long samples = 0;
        for (int round = 1; round <= SETTLE_ROUNDS; round++) {
            List<SteppedRunScript> scripts = new ArrayList<>();
            for (int r = 0; r < SETTLE_RUNS; r++) {
                scripts.add(SteppedRunScript.of("settle-" + round + "-" + r, RUN_START, steps, FULL_STEP_LENGTH,
                        batchesPerStep * linesPerBatch, linesPerBatch));
            }
            long compiledBefore = JitQuiescence.totalCompileMillis();
            samples += runThrough(target, clickhouse, "settle-" + round + "-", scripts, steps, clients);
            JitQuiescence.await(JIT_WAIT_LIMIT, System.out);
            long compiled = JitQuiescence.totalCompileMillis() - compiledBefore;
            System.out.printf(Locale.ROOT, "settling round %d: %d requests of %d lines, %d clients: %.1f s of"
                    + " compile time%n", round, SETTLE_RUNS * steps * batchesPerStep, linesPerBatch, clients,
                    compiled / 1e3);
            if (compiled < SETTLED_COMPILE_MILLIS) {
                break;
            }
        }
        return samples;
    }

    /** Sends {@code scripts} and waits until their samples are stored and their last steps aggregated. */
    private static long runThrough(Target target, ClickHouseTarget clickhouse, String prefix,
            List<SteppedRunScript> scripts, int steps, int clients) throws Exception {
        long samples = scripts.stream().mapToLong(SteppedRunScript::samples).sum();
        try (AggregateWatcher watcher = AggregateWatcher.start(clickhouse, prefix, 200)) {
            send(target, scripts, clients, new BatchLog(scripts.stream().mapToInt(s -> s.requests().size()).sum()),
                    0);
            long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (watcher.storedSamples() < samples
                    || scripts.stream().anyMatch(s -> watcher.step(s.runId(), steps - 1) == null)) {
                watcher.check();
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(prefix + " runs not through the pipeline in 5 min: "
                            + watcher.storedSamples() + " of " + samples + " samples stored");
                }
                Thread.sleep(200);
            }
        }
        return samples;
    }

    private static PipelineFigures measure(Target target, ClickHouseTarget clickhouse, List<SteppedRunScript> scripts,
            int steps, int clients, double rate) throws Exception {
        long samples = scripts.stream().mapToLong(SteppedRunScript::samples).sum();
        BatchLog log = new BatchLog(scripts.stream().mapToInt(s -> s.requests().size()).sum());
        String prefix = scripts.getFirst().runId().substring(0, scripts.getFirst().runId().lastIndexOf('-') + 1);
        try (AggregateWatcher watcher = AggregateWatcher.start(clickhouse, prefix, POLL_MILLIS)) {
            CpuAccount cpu = CpuAccount.start();
            EngineActivity engine = EngineActivity.start(clickhouse);
            long started = System.nanoTime();
            send(target, scripts, clients, log, rate);
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
                    long exact = watcher.exactStoredSamples();
                    if (watcher.storedSamples() != samples || exact != samples) {
                        throw new IllegalStateException("stored " + exact + " samples (" + watcher.storedSamples()
                                + " by the parts' rows), sent " + samples);
                    }
                    cpu.print(System.out, samples);
                    engine.print(System.out, samples);
                    TemporaryBufferCaches.print(System.out);
                    NativeMemorySummary.print(System.out);
                    return PipelineFigures.of(samples, started, lastAck, samplesStoredAt,
                            Math.max(samplesStoredAt, lastChange),
                            Math.max(samplesStoredAt, lastChange(watcher, scripts, steps - 1)), log,
                            (run, step) -> watcher.step(run, step).changedNanos(),
                            new PipelineFigures.Heap(watcher.peakHeapBytes(), watcher.peakHeapAfterGcBytes(),
                                    Runtime.getRuntime().maxMemory(), watcher.offHeapPeaks()));
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

    /** When the last aggregate of the runs' first {@code steps} steps changed, or 0 while one of them has none yet. */
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
     * flight; each sample batch's acknowledgement time goes to the log. With {@code rate} > 0 a batch is not sent
     * before its turn: the samples reserved before it (all runs) divided by the rate after the first request.
     */
    private static void send(Target target, List<SteppedRunScript> scripts, int clients, BatchLog log, double rate)
            throws InterruptedException {
        HttpClient http = WriteClients.newClient();
        AtomicLong reserved = new AtomicLong();
        long started = System.nanoTime();
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
                        if (rate > 0 && request.lines()) {
                            long turn = started + (long) (reserved.getAndAdd(request.samples()) / rate * 1e9);
                            long wait = turn - System.nanoTime();
                            if (wait > 0) {
                                Thread.sleep(Duration.ofNanos(wait));
                            }
                        }
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

    /**
     * The line-protocol requests of every run, interleaved as the clients send them. Each body is copied from its
     * off-heap segment when a client takes it, as caplab's pass does: held whole on the heap, 5M samples' bodies
     * (1.1 GB) would not fit the 1 GiB heap the stack is measured in (bench/README.md).
     */
    private static List<byte[]> interleavedLines(List<SteppedRunScript> scripts) {
        List<List<SteppedRunScript.Request>> perRun = scripts.stream().map(s -> s.requests().stream()
                .filter(SteppedRunScript.Request::lines).toList()).toList();
        List<SteppedRunScript.Request> out = new ArrayList<>();
        int longest = perRun.stream().mapToInt(List::size).max().orElse(0);
        for (int i = 0; i < longest; i++) {
            for (List<SteppedRunScript.Request> run : perRun) {
                if (i < run.size()) {
                    out.add(run.get(i));
                }
            }
        }
        return new java.util.AbstractList<>() {
            @Override
            public byte[] get(int index) {
                return out.get(index).body();
            }

            @Override
            public int size() {
                return out.size();
            }
        };
    }
}
