package dev.caplab.bench.pipeline;

import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.InaccessibleObjectException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The JDK's per-thread caches of temporary direct buffers ({@code sun.nio.ch.Util}), thread by thread: a socket or file
 * read or write of a heap buffer goes through a native buffer of the heap buffer's remaining size, which the thread
 * keeps for its next I/O (up to {@code jdk.nio.maxCachedBufferSize}, unbounded by default). They are native memory
 * ({@code Unsafe.allocateMemory}) that neither the {@code direct} buffer pool nor {@code -XX:MaxDirectMemorySize}
 * counts, so the bench reads them out of the threads themselves. Needs {@code --add-opens
 * java.base/java.lang=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED}; without them it says so.
 */
final class TemporaryBufferCaches {

    private TemporaryBufferCaches() {
    }

    static void print(PrintStream out) {
        Map<String, long[]> groups = new HashMap<>();
        try {
            Field cacheField = Class.forName("sun.nio.ch.Util").getDeclaredField("bufferCache");
            cacheField.setAccessible(true);
            ThreadLocal<?> cache = (ThreadLocal<?>) cacheField.get(null);
            // a TerminatingThreadLocal's values are in a map of their own, not the thread's threadLocals
            Method locals = Thread.class.getDeclaredMethod("terminatingThreadLocals");
            locals.setAccessible(true);
            Method getEntry = Class.forName("java.lang.ThreadLocal$ThreadLocalMap")
                    .getDeclaredMethod("getEntry", ThreadLocal.class);
            getEntry.setAccessible(true);
            Field value = Class.forName("java.lang.ThreadLocal$ThreadLocalMap$Entry").getDeclaredField("value");
            value.setAccessible(true);
            Field buffers = Class.forName("sun.nio.ch.Util$BufferCache").getDeclaredField("buffers");
            buffers.setAccessible(true);
            for (Thread thread : Thread.getAllStackTraces().keySet()) {
                Object map = locals.invoke(thread);
                Object entry = map == null ? null : getEntry.invoke(map, cache);
                if (entry == null) {
                    continue;
                }
                long bytes = 0;
                long count = 0;
                for (ByteBuffer b : (ByteBuffer[]) buffers.get(value.get(entry))) {
                    if (b != null) {
                        bytes += b.capacity();
                        count++;
                    }
                }
                long[] g = groups.computeIfAbsent(thread.getName().replaceAll("\\d+", "N"), k -> new long[3]);
                g[0] += bytes;
                g[1] += count;
                g[2] = Math.max(g[2], bytes);
            }
        } catch (InaccessibleObjectException | ReflectiveOperationException e) {
            out.println("temporary direct buffers per thread: not readable (" + e.getMessage() + "); run with"
                    + " --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED");
            return;
        }
        long total = groups.values().stream().mapToLong(g -> g[0]).sum();
        out.printf(Locale.ROOT, "JDK's cached temporary direct buffers (sun.nio.ch.Util, native, outside the direct"
                + " pool) now: %.1f MiB; by thread group (MiB in buffers, largest thread's MiB):%n", total / 1048576.0);
        groups.entrySet().stream().filter(e -> e.getValue()[0] > 0)
                .sorted((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0])).limit(15)
                .forEach(e -> out.printf(Locale.ROOT, "  %8.1f MiB in %4d, largest thread %7.1f MiB  %s%n",
                        e.getValue()[0] / 1048576.0, e.getValue()[1], e.getValue()[2] / 1048576.0, e.getKey()));
    }
}
