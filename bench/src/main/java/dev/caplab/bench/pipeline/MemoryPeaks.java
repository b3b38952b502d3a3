package dev.caplab.bench.pipeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where the stack's memory outside the heap is, sampled at each watcher poll: the JVM's {@code direct} buffer pool
 * (count and capacity; what {@code -XX:MaxDirectMemorySize} limits, by default the heap's maximum) and the process's
 * anonymous resident memory ({@code RssAnon}: heap, direct buffers, chDB's and RocksDB's native memory, thread
 * stacks; not the bench's request bodies, which are mapped files, {@code RssShmem}/{@code RssFile}).
 */
final class MemoryPeaks {

    private static final Path STATUS = Path.of("/proc/self/status");

    /** Peaks over a pass, and the kernel's own peak resident set of the process since it started, in bytes. */
    record Figures(long directBytes, long directBuffers, String directLimit, long rssAnonBytes, long vmHwmBytes,
                   long mappedResidentBytes) {
    }

    private final BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter(p -> p.getName().equals("direct")).findFirst().orElseThrow();
    private volatile long peakDirectBytes;
    private volatile long peakDirectBuffers;
    private volatile long peakRssAnonBytes;

    synchronized void sample() {
        peakDirectBytes = Math.max(peakDirectBytes, direct.getMemoryUsed());
        peakDirectBuffers = Math.max(peakDirectBuffers, direct.getCount());
        peakRssAnonBytes = Math.max(peakRssAnonBytes, status("RssAnon:"));
    }

    Figures figures() {
        sample();
        return new Figures(peakDirectBytes, peakDirectBuffers, directLimit(), peakRssAnonBytes, status("VmHWM:"),
                status("RssShmem:") + status("RssFile:"));
    }

    /** The direct-memory limit in force: {@code -XX:MaxDirectMemorySize}, or by default the heap's maximum. */
    private static String directLimit() {
        List<String> args = ManagementFactory.getRuntimeMXBean().getInputArguments();
        for (String arg : args.reversed()) {
            if (arg.startsWith("-XX:MaxDirectMemorySize=")) {
                return arg;
            }
        }
        return String.format(java.util.Locale.ROOT, "the default, the heap's maximum: %.0f MiB",
                Runtime.getRuntime().maxMemory() / 1048576.0);
    }

    /** A "kB" field of /proc/self/status, in bytes. */
    private static long status(String field) {
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]) * 1024;
                }
            }
            throw new IllegalStateException(STATUS + " has no " + field);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
