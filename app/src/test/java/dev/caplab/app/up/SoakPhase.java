package dev.caplab.app.up;

import dev.caplab.app.load.HeapAfterGc;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * One soak phase's figures: samples, wall time to the last acknowledgement and until stored, and after it the peak
 * heap after any GC so far (an upper bound: a young collection leaves old garbage in place), the heap after a full
 * GC at the phase's end (what the stack really holds then), the Streams state directory's bytes and RocksDB's SST
 * and memtable bytes.
 */
record SoakPhase(String name, long samples, Duration sent, Duration stored, long peakHeapAfterGcBytes,
                 long liveHeapBytes, long stateDirBytes, long sstBytes, long memtableBytes) {

    private static final double MIB = 1024.0 * 1024.0;

    /** Takes the figures of the stack in this JVM. */
    record Probe(EmbeddedStack stack, HeapAfterGc heap, Path stateDir) {

        SoakPhase phase(String name, long samples, Duration sent, Duration stored) {
            long peak = heap.peakBytes();
            System.gc();
            long live = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            return new SoakPhase(name, samples, sent, stored, peak, live, bytesUnder(stateDir),
                    stack.streams().stateStoreBytes("total-sst-files-size"),
                    stack.streams().stateStoreBytes("size-all-mem-tables"));
        }
    }

    static long bytesUnder(Path dir) {
        return DirectorySizes.bytesUnder(dir);
    }

    double ingestPerSecond() {
        return samples / (sent.toNanos() / 1e9);
    }

    double storedPerSecond() {
        return samples / (stored.toNanos() / 1e9);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%-32s %,10d samples  sent %6.1f s (%,9.0f/s)  stored %6.1f s (%,9.0f/s)"
                + "  heap after GC peak %,6.0f MiB, after full GC %,6.0f MiB  state dir %,7.1f MiB  sst %,7.1f MiB"
                + "  memtables %,6.1f MiB",
                name, samples, sent.toMillis() / 1000.0, ingestPerSecond(), stored.toMillis() / 1000.0,
                storedPerSecond(), peakHeapAfterGcBytes / MIB, liveHeapBytes / MIB, stateDirBytes / MIB,
                sstBytes / MIB, memtableBytes / MIB);
    }

    static void print(PrintStream out, List<SoakPhase> phases, long collections) {
        out.println("soak figures (heap after GC: peak over " + collections + " collections, max heap "
                + String.format(Locale.ROOT, "%,.0f MiB", Runtime.getRuntime().maxMemory() / MIB) + ", "
                + Runtime.getRuntime().availableProcessors() + " cores):");
        phases.forEach(p -> out.println("  " + p));
        out.println(String.format(Locale.ROOT, "  total %,.1f s", phases.stream().mapToLong(p -> p.stored().toMillis())
                .sum() / 1000.0));
    }
}
