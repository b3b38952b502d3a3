package dev.caplab.app.tools;

import dev.caplab.app.recipes.ProcStat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The kernel's own CPU accounting, read by the test beside caplab: every {@value #PERIOD_MILLIS} ms one process's
 * utime + stime ({@code /proc/PID/stat}) and the machine's busy time ({@code /proc/stat}, as {@link ProcStat} sums
 * it), stamped with the wall clock. {@link #processCores} and {@link #hostCores} give the cores used over any window,
 * interpolating between readings (a tick is 10 ms: over a 10 s window that is 0.001 cores).
 */
final class ProcCpuTrace implements AutoCloseable {

    static final long PERIOD_MILLIS = 100;

    /** One reading: when (epoch microseconds), the process's CPU ticks and the machine's busy ticks. */
    record Reading(long epochMicros, long processTicks, long hostTicks) {
    }

    private final Path stat;
    private final List<Reading> readings = new ArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final List<Exception> failures = new ArrayList<>();

    private ProcCpuTrace(long pid) {
        this.stat = Path.of("/proc", Long.toString(pid), "stat");
    }

    static ProcCpuTrace start(long pid) throws IOException {
        ProcCpuTrace trace = new ProcCpuTrace(pid);
        trace.read();
        trace.timer.scheduleAtFixedRate(trace::readQuietly, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        return trace;
    }

    /** The process's utime + stime: fields 14 and 15 of its stat line, counted after the ")" closing its name. */
    private long processTicks() throws IOException {
        String line = Files.readString(stat);
        String[] f = line.substring(line.lastIndexOf(')') + 2).trim().split("\\s+");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    private void read() throws IOException {
        long process = processTicks();
        long host = ProcStat.busyTicks();
        long micros = Math.multiplyExact(System.currentTimeMillis(), 1000L);
        synchronized (readings) {
            readings.add(new Reading(micros, process, host));
        }
    }

    private void readQuietly() {
        try {
            read();
        } catch (IOException | RuntimeException e) {
            synchronized (readings) {
                failures.add(e);
            }
        }
    }

    /** The process's cores over {@code [fromMicros, toMicros)}. */
    double processCores(long fromMicros, long toMicros) {
        return cores(fromMicros, toMicros, true);
    }

    /** The machine's busy cores over {@code [fromMicros, toMicros)}. */
    double hostCores(long fromMicros, long toMicros) {
        return cores(fromMicros, toMicros, false);
    }

    /**
     * The median of the machine's busy cores over each whole second of {@code [fromMicros, toMicros)} (the mean of
     * the middle two when even): what a once-a-second scrape's per-interval rates have for a median.
     */
    double hostCoresMedianPerSecond(long fromMicros, long toMicros) {
        List<Double> perSecond = new ArrayList<>();
        for (long t = fromMicros; t + 1_000_000 <= toMicros; t += 1_000_000) {
            perSecond.add(cores(t, t + 1_000_000, false));
        }
        double[] v = perSecond.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length == 0 ? Double.NaN : v.length % 2 == 1 ? v[v.length / 2]
                : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private double cores(long fromMicros, long toMicros, boolean process) {
        double ticks = ticksAt(toMicros, process) - ticksAt(fromMicros, process);
        return ticks / ProcStat.TICKS_PER_SECOND / ((toMicros - fromMicros) / 1e6);
    }

    private double ticksAt(long micros, boolean process) {
        List<Reading> copy;
        synchronized (readings) {
            if (!failures.isEmpty()) {
                throw new IllegalStateException("reading " + stat + " failed", failures.getFirst());
            }
            copy = List.copyOf(readings);
        }
        for (int i = 1; i < copy.size(); i++) {
            Reading a = copy.get(i - 1);
            Reading b = copy.get(i);
            if (a.epochMicros() <= micros && micros <= b.epochMicros()) {
                double share = b.epochMicros() == a.epochMicros() ? 0
                        : (micros - a.epochMicros()) / (double) (b.epochMicros() - a.epochMicros());
                long ta = process ? a.processTicks() : a.hostTicks();
                long tb = process ? b.processTicks() : b.hostTicks();
                return ta + share * (tb - ta);
            }
        }
        throw new IllegalArgumentException("no readings around " + micros + " (from " + copy.getFirst().epochMicros()
                + " to " + copy.getLast().epochMicros() + ")");
    }

    @Override
    public void close() throws InterruptedException {
        timer.shutdown();
        timer.awaitTermination(5, TimeUnit.SECONDS);
    }
}
