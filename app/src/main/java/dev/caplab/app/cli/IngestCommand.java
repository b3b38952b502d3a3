package dev.caplab.app.cli;

import dev.caplab.ingest.adapter.Adapter;
import dev.caplab.ingest.adapter.AdapterOptions;
import dev.caplab.ingest.adapter.Adapters;
import dev.caplab.ingest.adapter.InputPublisher;
import dev.caplab.ingest.adapter.NoTimeBaseException;
import dev.caplab.ingest.adapter.UndatedRows;
import dev.caplab.ingest.locust.LocustAdapter;
import dev.caplab.ingest.locust.LocustFile;
import dev.caplab.ingest.locust.LocustFiles;
import dev.caplab.ingest.prometheus.PrometheusAdapter;
import dev.caplab.ingest.prometheus.PrometheusScraper;
import dev.caplab.ingest.publish.KafkaSampleSink;
import dev.caplab.ingest.runs.Landing;
import dev.caplab.ingest.runs.LifecycleWatcher;
import dev.caplab.ingest.runs.PlacingSampleSink;
import dev.caplab.ingest.runs.RunDirectory;
import dev.caplab.ingest.runs.RunGenerations;
import dev.caplab.ingest.publish.ProducerSettings;
import dev.caplab.ingest.publish.SampleSink;
import dev.caplab.schema.event.Sample;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.zip.GZIPInputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code caplab ingest}: reads a tool's output from a file or stdin (or follows a file, or scrapes a /metrics URL)
 * and publishes it as samples of a run. Rejected lines print as {@code file:line: field: reason}; the exit code is 1
 * when any line was rejected, after every valid sample was published.
 */
@Command(name = "ingest", mixinStandardHelpOptions = true,
        description = "Publishes a load-test tool's or sampler's output as samples of a run.")
public final class IngestCommand implements Callable<Integer> {

    @Option(names = "--format", required = true, paramLabel = "FORMAT", completionCandidates = Formats.class,
            description = "Input format: ${COMPLETION-CANDIDATES}.")
    String format;

    /** The formats --help lists: the registry that dispatches them ({@link Adapters#formats()}), so they agree. */
    public static final class Formats implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Adapters.formats().iterator();
        }
    }

    @Option(names = "--run", required = true, description = "Run id the samples belong to.")
    String runId;

    @Option(names = "--file", defaultValue = "-", paramLabel = "FILE",
            description = "Input file, '-' for stdin (default). For locust: the --csv prefix or any of its files. "
                    + "Gzipped input is recognised.")
    String file;

    @Option(names = "--follow", description = "Keep reading the file as it grows (tail -F: truncation and rotation handled).")
    boolean follow;

    @Option(names = "--idle-exit", paramLabel = "DURATION",
            description = "With --follow: stop once the file has not grown for this long (default: until Ctrl-C).")
    String idleExit;

    @Option(names = "--url", paramLabel = "URL", description = "prometheus: scrape this /metrics URL instead of reading a file.")
    URI url;

    @Option(names = "--interval", defaultValue = "5s", paramLabel = "DURATION",
            description = "prometheus --url: scrape interval (default: ${DEFAULT-VALUE}).")
    String interval;

    @Option(names = {"-o", "--option"}, paramLabel = "KEY=VALUE",
            description = "Format option, e.g. group.jitsi=web,jvb (docker-stats), history=window (locust), "
                    + "columns=timeStamp,elapsed (jmeter), source=NAME, at=2026-12-02T10:15:00Z (the time of rows "
                    + "that carry none in a file: docker-stats, prometheus, influx-line, locust's totals; without it "
                    + "a piped or followed input uses its read time, a file is refused, locust's totals take the "
                    + "history's last timestamp).")
    List<String> options = new ArrayList<>();

    @Mixin
    SinkOptions sinkOptions;

    /** When lines are read: the "now" of the accepted time window, and the time of live lines that carry none. */
    Clock clock = Clock.systemUTC();

    @Mixin
    RunMetadataOptions metadata;

    @Override
    public Integer call() throws Exception {
        AdapterOptions adapterOptions = AdapterOptions.parse(options);
        Adapter adapter = Adapters.create(format, adapterOptions);
        try (SinkOptions.Opened sink = sinkOptions.open("caplab-ingest")) {
            if (url != null) {
                return scrape(adapterOptions, metadata.labelling(sink.sink()));
            }
            InputPublisher publisher = new InputPublisher(adapter, runId, metadata.labelling(sink.sink()),
                    System.err::println);
            InputPublisher.Outcome outcome = LocustAdapter.FORMAT.equals(format) && !file.equals("-")
                    ? locust(publisher, adapterOptions, sink.sink(), Path.of(file)) : one(publisher, file);
            System.err.printf("caplab ingest: %d samples published to %s, %d lines rejected%n",
                    outcome.samples(), sink.landedIn(runId), outcome.rejected());
            sink.warnings().forEach(w -> System.err.println("caplab ingest: " + w));
            return outcome.rejected() == 0 ? 0 : 1;
        }
    }

    private InputPublisher.Outcome one(InputPublisher publisher, String input) throws Exception {
        if (follow) {
            if (input.equals("-")) {
                throw new IllegalArgumentException("--follow needs --file: stdin is read to its end anyway");
            }
            return follow(publisher, Path.of(input));
        }
        try (BufferedReader reader = open(input)) {
            boolean stdin = input.equals("-");
            return publisher.ingest(stdin ? "<stdin>" : input, reader, stdin && stdinIsLive(), clock);
        }
    }

    /**
     * Whether stdin is written while it is read (a pipe from a running tool), so its read time may stand in for a
     * time a line does not carry; stdin redirected from a file ({@code < saved.txt}) is a file.
     */
    private static boolean stdinIsLive() {
        return !Files.isRegularFile(Path.of("/dev/stdin"));
    }

    /**
     * The history is followed while Locust runs; the rewritten-in-place totals are read once, at the end, and
     * take the history's last timestamp (their state at the end of the run) unless {@code -o at=} gives a time.
     */
    private InputPublisher.Outcome locust(InputPublisher publisher, AdapterOptions adapterOptions, SampleSink sink,
            Path given) throws Exception {
        Map<LocustFile, Path> files = LocustFiles.existing(given);
        if (files.isEmpty() && !follow) {
            throw new IllegalArgumentException("no Locust CSV files for prefix " + LocustFiles.prefixOf(given));
        }
        InputPublisher.Outcome total = InputPublisher.Outcome.NONE;
        Path history = files.getOrDefault(LocustFile.STATS_HISTORY,
                LocustFiles.prefixOf(given).resolveSibling(LocustFiles.prefixOf(given).getFileName()
                        + LocustFile.STATS_HISTORY.suffix()));
        if (follow) {
            total = total.plus(follow(publisher, history));
            files = LocustFiles.existing(given);
        } else if (files.containsKey(LocustFile.STATS_HISTORY)) {
            total = total.plus(one(publisher, history.toString()));
        }
        InputPublisher totals = null;
        for (Map.Entry<LocustFile, Path> entry : files.entrySet()) {
            if (entry.getKey() != LocustFile.STATS_HISTORY) {
                if (totals == null) {
                    totals = totalsPublisher(adapterOptions, sink, total, entry.getValue());
                }
                try (BufferedReader reader = open(entry.getValue().toString())) {
                    total = total.plus(totals.ingest(entry.getValue().toString(), reader, false,
                            clock));
                }
            }
        }
        return total;
    }

    /**
     * The publisher of the totals files: at the {@code at} option, else at the history's last timestamp. Followed
     * live, the totals are what Locust wrote when it quit, up to 10 s after the history's last row (Locust flushes its
     * CSV files every 10 s and its history loses the unflushed rows at exit): they take the time Locust last wrote
     * them, their file's modification time, when that is later, so their final counts never land inside the last
     * step as a jump of the request counter. A file read after the fact keeps the history's time: a copy's
     * modification time may be days later.
     */
    private InputPublisher totalsPublisher(AdapterOptions adapterOptions, SampleSink sink,
            InputPublisher.Outcome history, Path first) throws IOException {
        AdapterOptions timed = adapterOptions;
        if (adapterOptions.instant(UndatedRows.OPTION).isEmpty()) {
            java.time.Instant end = history.latest().orElseThrow(() -> new NoTimeBaseException(
                    first.toString(), "no " + LocustFile.STATS_HISTORY.suffix() + " with rows beside it gives "
                    + "the run's end; give it with -o " + UndatedRows.OPTION + "=<ISO-8601 instant, e.g. "
                    + "2026-12-02T10:15:00Z>"));
            if (follow) {
                java.time.Instant written = Files.getLastModifiedTime(first).toInstant();
                if (written.isAfter(end) && !written.isAfter(clock.instant())) {
                    end = written;
                }
            }
            timed = adapterOptions.with(UndatedRows.OPTION, end.toString());
        }
        return new InputPublisher(Adapters.create(format, timed), runId, sink, System.err::println);
    }

    private InputPublisher.Outcome follow(InputPublisher publisher, Path path) throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        Duration idle = idleExit == null ? null : StepCommand.Durations.parse(idleExit);
        AtomicLong lastSize = new AtomicLong(-1);
        AtomicLong lastChange = new AtomicLong(System.nanoTime());
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            running.set(false);
            try {
                done.await(); // let the last lines be published before the JVM exits
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return publisher.follow(path, Duration.ofMillis(250), () -> running.get() && !idleFor(path, idle,
                    lastSize, lastChange), clock);
        } finally {
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: nothing to remove
            }
        }
    }

    private static boolean idleFor(Path path, Duration idle, AtomicLong lastSize, AtomicLong lastChange) {
        if (idle == null) {
            return false;
        }
        long size;
        try {
            size = Files.exists(path) ? Files.size(path) : -1;
        } catch (IOException e) {
            size = -1;
        }
        if (size != lastSize.getAndSet(size)) {
            lastChange.set(System.nanoTime());
            return false;
        }
        return System.nanoTime() - lastChange.get() > idle.toNanos();
    }

    private int scrape(AdapterOptions adapterOptions, SampleSink sink) throws InterruptedException {
        if (!PrometheusAdapter.FORMAT.equals(format)) {
            throw new IllegalArgumentException("--url is for --format prometheus");
        }
        String source = adapterOptions.text("source", PrometheusScraper.defaultSource(url));
        AtomicLong problems = new AtomicLong();
        CountDownLatch stopped = new CountDownLatch(1);
        PrometheusScraper scraper = new PrometheusScraper(url, source, StepCommand.Durations.parse(interval), runId,
                sink, p -> {
                    problems.incrementAndGet();
                    System.err.println(url + ": " + p.what());
                });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            scraper.stop();
            stopped.countDown();
        }));
        scraper.start();
        System.err.println("caplab ingest: scraping " + url + " every " + interval + " into run " + runId);
        stopped.await();
        return problems.get() == 0 ? 0 : 1;
    }

    static BufferedReader open(String input) throws IOException {
        InputStream raw = input.equals("-") ? System.in : Files.newInputStream(Path.of(input));
        BufferedInputStream in = new BufferedInputStream(raw);
        in.mark(2);
        int b1 = in.read();
        int b2 = in.read();
        in.reset();
        InputStream body = b1 == 0x1f && b2 == 0x8b ? new GZIPInputStream(in) : in;
        return new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
    }

    /** Where samples go: Kafka, or with --dry-run standard output (one JSON sample per line). */
    public static final class SinkOptions {

        @Option(names = {"--bootstrap", "--bootstrap-servers"}, paramLabel = "HOST:PORT",
                defaultValue = "${env:CAPLAB_BOOTSTRAP_SERVERS:-127.0.0.1:9092}",
                description = "Kafka bootstrap servers (default: $CAPLAB_BOOTSTRAP_SERVERS or ${DEFAULT-VALUE}).")
        String bootstrap;

        @Mixin
        KafkaLoginOptions kafkaLogin;

        @Option(names = "--dry-run", description = "Print samples as JSON lines instead of publishing them.")
        boolean dryRun;

        /**
         * An open sink, what closes it, and where its samples landed so far (nothing for a dry run: no run is
         * placed).
         */
        public record Opened(SampleSink sink, AutoCloseable closer, Supplier<List<Landing>> landings)
                implements AutoCloseable {
            @Override
            public void close() throws Exception {
                closer.close();
            }

            /** The runs the samples sent to {@code sentTo} landed in: {@code run k6.2}, {@code runs k6, k6.2}. */
            public String landedIn(String sentTo) {
                List<String> runs = landings.get().stream().map(Landing::runId).distinct().toList();
                return runs.size() > 1 ? "runs " + String.join(", ", runs)
                        : "run " + (runs.isEmpty() ? sentTo : runs.getFirst());
            }

            /** What the user must be told of where samples went (a new run, late data, after a run's end). */
            public List<String> warnings() {
                return landings.get().stream().map(Landing::warning).filter(Objects::nonNull).toList();
            }
        }

        /**
         * Kafka, where each publish's samples go to the run the HTTP write endpoints would place them in
         * ({@link PlacingSampleSink}: read from the lifecycle topic); with --dry-run, standard output as sent.
         */
        Opened open(String clientId) {
            if (dryRun) {
                return new Opened(new PrintingSink(System.out), () -> System.out.flush(), List::of);
            }
            KafkaSampleSink kafka = new KafkaSampleSink(new ProducerSettings(bootstrap, clientId, kafkaLogin.security()));
            RunDirectory directory = new RunDirectory();
            LifecycleWatcher watcher = new LifecycleWatcher(bootstrap, kafkaLogin.security(), directory);
            PlacingSampleSink placing = new PlacingSampleSink(kafka, new RunGenerations(directory));
            return new Opened(placing, () -> {
                try (watcher; kafka) {
                    // both closed, the producer first
                }
            }, placing::landings);
        }
    }

    /** Prints samples instead of publishing them. */
    static final class PrintingSink implements SampleSink {
        private final PrintStream out;

        PrintingSink(PrintStream out) {
            this.out = out;
        }

        @Override
        public synchronized CompletableFuture<Void> publish(String runId, String adapter, List<Sample> samples) {
            samples.forEach(out::println);
            return CompletableFuture.completedFuture(null);
        }
    }
}
