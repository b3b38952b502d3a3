package dev.caplab.bench.pipeline;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The JVM's native memory by category ({@code jcmd VM.native_memory summary}, read in process) when the JVM runs with
 * {@code -XX:NativeMemoryTracking=summary}: "Other" holds {@code Unsafe.allocateMemory}, so direct buffers, native
 * segments and the JDK's temporary I/O buffers, with its peak since the start. chDB's and RocksDB's own allocations
 * are not the JVM's and are not in it (they are in the process's resident memory).
 */
final class NativeMemorySummary {

    private NativeMemorySummary() {
    }

    static void print(PrintStream out) {
        String summary;
        try {
            summary = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmNativeMemory",
                    new Object[] {new String[] {"summary"}}, new String[] {String[].class.getName()});
        } catch (JMException e) {
            out.println("native memory summary: not available (" + e.getMessage() + ")");
            return;
        }
        if (summary.contains("not enabled")) {
            return; // run with -XX:NativeMemoryTracking=summary for it
        }
        out.println("native memory of the JVM (NativeMemoryTracking=summary; committed, and malloc's peak):");
        boolean other = false;
        for (String line : summary.split("\n")) {
            String t = line.strip();
            if (t.startsWith("Total:") || t.startsWith("malloc:") || t.startsWith("- ") && t.contains("committed=")) {
                out.println("  " + t);
                other = t.startsWith("- ") && t.contains("Other");
            } else if (other && t.startsWith("(malloc=")) {
                out.println("      " + t);
            }
        }
    }
}
