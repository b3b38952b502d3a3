package dev.caplab.bench.pipeline;

import java.io.PrintStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Locale;

/**
 * Waits after the warm-up until the JIT's compile queue has drained, so the measured pass is billed the compilation
 * its own load triggers, not the tail of the warm-up's: on the shared 2-core machine the one C2 thread was still
 * working through the warm-up's queue (16 s of compile time after a 400,000-sample warm-up at load average 20) when
 * the measured pass began. It does not replace a warm-up long enough for per-request code to reach C2 (see
 * {@code PipelineBench.warmUp}).
 */
final class JitQuiescence {

    /** The compiler counts as idle when it spent less than this in a whole {@link #QUIET_WINDOW}. */
    private static final long IDLE_MILLIS = 100;
    private static final Duration QUIET_WINDOW = Duration.ofSeconds(5);
    private static final Duration POLL = Duration.ofMillis(500);

    private JitQuiescence() {
    }

    /**
     * Blocks until the compiler is idle (see {@link #IDLE_MILLIS}) or {@code limit} has passed; prints how long it
     * waited and how much compile time that took.
     */
    static void await(Duration limit, PrintStream out) throws InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            out.println("JIT compile time not monitored by this JVM: measuring without waiting for the compiler");
            return;
        }
        long start = System.nanoTime();
        long startMillis = jit.getTotalCompilationTime();
        int windowPolls = (int) (QUIET_WINDOW.toMillis() / POLL.toMillis());
        long[] window = new long[windowPolls + 1];
        int polls = 0;
        while (true) {
            window[polls % window.length] = jit.getTotalCompilationTime();
            if (polls >= windowPolls
                    && window[polls % window.length] - window[(polls + 1) % window.length] < IDLE_MILLIS) {
                break;
            }
            if (System.nanoTime() - start > limit.toNanos()) {
                out.printf(Locale.ROOT, "JIT still compiling after %d s: measuring anyway%n", limit.toSeconds());
                break;
            }
            polls++;
            Thread.sleep(POLL);
        }
        out.printf(Locale.ROOT, "waited %.1f s after the warm-up for the JIT's queue to drain (%.1f s of compile"
                        + " time); total compile time before the measured pass: %.1f s%n",
                (System.nanoTime() - start) / 1e9, (jit.getTotalCompilationTime() - startMillis) / 1e3,
                jit.getTotalCompilationTime() / 1e3);
    }

    /** Compile time (summed over the compiler threads) since the JVM started, in milliseconds. */
    static long totalCompileMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit == null || !jit.isCompilationTimeMonitoringSupported() ? -1 : jit.getTotalCompilationTime();
    }
}
