package dev.caplab.bench.pipeline;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU time the stack's JVM spent over a measured pass, in total and by thread group. On a shared, loaded machine
 * wall-clock rates swing with the neighbours; CPU per sample does much less, so it is the figure to compare an
 * optimisation by. Groups come from Linux's per-thread accounting ({@code /proc/self/task}), so native threads —
 * chDB's merges and inserts, RocksDB's flushes, GC, JIT — are counted too; names are the kernel's (15 characters),
 * digits blanked. Threads that ended during the pass are only in the process total ("ended threads").
 */
public final class CpuAccount {

    private static final Path TASKS = Path.of("/proc/self/task");
    /** strerror(ESRCH), the message of a read of an ended thread's stat file. */
    private static final String ESRCH = "No such process";
    private static final double TICK_NANOS = 1e9 / 100; // USER_HZ, 100 on every Linux the bench runs on

    private final long processStart;
    private final Map<String, Long> threadStart;
    private final long compileMillisStart;
    private final long pauseMillisStart;
    private final long wallStart;

    private CpuAccount() {
        processStart = processCpuNanos();
        threadStart = threads();
        compileMillisStart = JitQuiescence.totalCompileMillis();
        pauseMillisStart = pauseMillis();
        wallStart = System.nanoTime();
    }

    /**
     * Time in the collectors' pauses since the JVM started: every collector bean but G1's concurrent cycle, whose
     * time is spent beside the application's threads (its CPU is in the GC threads' share).
     */
    private static long pauseMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .filter(gc -> !gc.getName().contains("Concurrent"))
                .mapToLong(GarbageCollectorMXBean::getCollectionTime).sum();
    }

    /** G1's threads as the kernel names them: "GC Thread#N", "G1 Conc#N", "G1 Refine#N", "G1 Main Marker", ... */
    private static boolean isGcThread(String group) {
        return group.startsWith("GC Thread") || group.startsWith("G1 ");
    }

    public static CpuAccount start() {
        return new CpuAccount();
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** CPU ticks (user + system) per thread, keyed by "tid name". */
    private static Map<String, Long> threads() {
        Map<String, Long> out = new HashMap<>();
        try (Stream<Path> tasks = Files.list(TASKS)) {
            tasks.forEach(task -> {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    int open = stat.indexOf('(');
                    int close = stat.lastIndexOf(')');
                    String[] f = stat.substring(close + 2).split(" ");
                    // after "pid (comm) ": state is field 0, utime 11, stime 12
                    out.put(task.getFileName() + " " + stat.substring(open + 1, close),
                            Long.parseLong(f[11]) + Long.parseLong(f[12]));
                } catch (NoSuchFileException ended) {
                    // the thread ended between listing and reading
                } catch (IOException e) {
                    // a thread that ends while its stat is read fails the read with ESRCH, not a missing file
                    if (!ESRCH.equals(e.getMessage())) {
                        throw new UncheckedIOException("cannot read " + task.resolve("stat"), e);
                    }
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Prints process CPU per sample and the busiest thread groups since {@link #start()}. */
    void print(PrintStream out, long samples) {
        print(out, samples, "µs", "sample", 1e3, 1);
    }

    /**
     * Prints process CPU per unit of work ({@code units} of {@code unit}, in {@code cpuUnit}, of which one is
     * {@code nanosPerCpuUnit} ns, with {@code decimals}) and the busiest thread groups since {@link #start()}.
     */
    public void print(PrintStream out, long units, String cpuUnit, String unit, double nanosPerCpuUnit, int decimals) {
        String figure = "%" + (5 + decimals) + "." + decimals + "f";
        long process = processCpuNanos() - processStart;
        Map<String, Double> groups = new HashMap<>();
        threads().forEach((thread, ticks) -> {
            String group = thread.substring(thread.indexOf(' ') + 1).replaceAll("\\d+", "N");
            groups.merge(group, (ticks - threadStart.getOrDefault(thread, 0L)) * TICK_NANOS, Double::sum);
        });
        double grouped = groups.values().stream().mapToDouble(Double::doubleValue).sum();
        out.printf(Locale.ROOT, "CPU of the stack's JVM during the pass: %.1f s = %." + decimals
                + "f %s per %s%n", process / 1e9, process / nanosPerCpuUnit / units, cpuUnit, unit);
        groups.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(12)
                .forEach(e -> out.printf(Locale.ROOT, "  " + figure + " %s/%s  %s%n",
                        e.getValue() / nanosPerCpuUnit / units, cpuUnit, unit, e.getKey()));
        out.printf(Locale.ROOT, "  " + figure + " %s/%s  (ended threads)%n", (process - grouped) / nanosPerCpuUnit
                / units, cpuUnit, unit);
        double gc = groups.entrySet().stream().filter(e -> isGcThread(e.getKey()))
                .mapToDouble(Map.Entry::getValue).sum();
        out.printf(Locale.ROOT, "GC: its threads took %.1f s of CPU = %.1f %% of the process's; pauses %.1f s = %.1f %%"
                + " of the pass's wall time%n", gc / 1e9, gc * 100.0 / process, (pauseMillis() - pauseMillisStart)
                / 1e3, (pauseMillis() - pauseMillisStart) * 1e6 / (System.nanoTime() - wallStart) * 100);
        if (compileMillisStart >= 0) {
            out.printf(Locale.ROOT, "JIT compile time during the pass (wall time of the compiler threads, not CPU):"
                    + " %.1f s%n", (JitQuiescence.totalCompileMillis() - compileMillisStart) / 1e3);
        }
    }
}
