package dev.caplab.ingest.adapter;

import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.parse.ParseResult;
import dev.caplab.ingest.publish.SampleSink;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Polls a source at a fixed rate and publishes what it yields: the host sampler and the Prometheus scraper both run
 * on it. One thread; a failed poll or publish is reported to the problem listener and the next tick runs anyway,
 * so a scrape target that restarts costs one interval, not the whole run.
 */
public final class IntervalPublisher implements AutoCloseable {

    /** Something that went wrong on one tick: which poll, and why. */
    public record Problem(long tick, String what, Throwable cause) {
    }

    private final String adapter;
    private final String runId;
    private final Duration interval;
    private final Supplier<ParseResult> poll;
    private final SampleSink sink;
    private final Consumer<Problem> problems;
    private final AtomicLong ticks = new AtomicLong();
    private final AtomicLong published = new AtomicLong();
    private ScheduledExecutorService scheduler;

    public IntervalPublisher(String adapter, String runId, Duration interval, Supplier<ParseResult> poll,
            SampleSink sink, Consumer<Problem> problems) {
        this.adapter = Objects.requireNonNull(adapter, "adapter");
        this.runId = Objects.requireNonNull(runId, "runId");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be positive, was " + interval);
        }
        this.interval = interval;
        this.poll = Objects.requireNonNull(poll, "poll");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.problems = Objects.requireNonNull(problems, "problems");
    }

    public synchronized void start() {
        if (scheduler != null) {
            throw new IllegalStateException(adapter + " publisher already started");
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "caplab-" + adapter);
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleAtFixedRate(this::tick, 0, interval.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Stops polling and waits for the tick in progress, so its samples are handed to the sink before returning. */
    public synchronized void stop() {
        if (scheduler == null) {
            return;
        }
        scheduler.shutdown();
        try {
            if (!scheduler.awaitTermination(interval.toMillis() + 10_000, TimeUnit.MILLISECONDS)) {
                scheduler.shutdownNow();
            }
        } catch (InterruptedException e) {
            scheduler.shutdownNow();
            Thread.currentThread().interrupt();
        }
        scheduler = null;
    }

    @Override
    public void close() {
        stop();
    }

    public long ticks() {
        return ticks.get();
    }

    public long samplesPublished() {
        return published.get();
    }

    private void tick() {
        long tick = ticks.incrementAndGet();
        ParseResult result;
        try {
            result = poll.get();
        } catch (RuntimeException e) {
            problems.accept(new Problem(tick, adapter + " poll failed: " + e.getMessage(), e));
            return;
        }
        for (ParseError error : result.errors()) {
            problems.accept(new Problem(tick, error.describe(), null));
        }
        int count = result.samples().size();
        try {
            sink.publish(runId, adapter, result.samples()).join();
            published.addAndGet(count);
        } catch (RuntimeException e) {
            problems.accept(new Problem(tick, adapter + " publish of " + count + " samples failed: " + e.getMessage(),
                    e));
        }
    }
}
