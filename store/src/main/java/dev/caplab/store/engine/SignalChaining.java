package dev.caplab.store.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Whether the JVM's signal-chaining library ({@code $JAVA_HOME/lib/libjsig.so}) is preloaded in this process.
 *
 * <p>Why it matters: every {@code chdb_connect} resets SIGSEGV, SIGBUS, SIGILL and SIGFPE to {@code SIG_DFL} and
 * takes 11–18 ms. HotSpot stops threads for a GC or a deoptimization through those signals (a safepoint poll faults
 * on purpose), so one arriving in that window killed the process: a child JVM that opened 30 connections while two
 * threads computed and a third called {@code System.gc()} died with SIGSEGV in 3 runs of 4, and a pipeline bench
 * with SIGILL as its warm-up opened a sink's insert connection. Restoring the handlers after the call does not
 * close the window. With libjsig preloaded, the JVM keeps its handlers installed and records chDB's as chained
 * ones (4 runs of 4 survived), which is how HotSpot documents living with a native library that sets handlers.
 * {@code ./caplab}, the image and the build's test JVMs preload it.
 */
final class SignalChaining {

    private static final Path MAPS = Path.of("/proc/self/maps");
    private static final String LIBRARY = "/libjsig.so";

    private SignalChaining() {
    }

    /** True when libjsig.so is mapped into this process (so it was preloaded: the JVM never loads it itself). */
    static boolean preloaded() {
        if (!Files.isReadable(MAPS)) {
            return false;
        }
        try (Stream<String> lines = Files.lines(MAPS)) {
            return lines.anyMatch(line -> line.endsWith(LIBRARY));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + MAPS, e);
        }
    }

    /** The {@code LD_PRELOAD} entry that makes {@link #preloaded()} true for a JVM started from this Java home. */
    static String preloadFor(Path javaHome) {
        return javaHome.resolve("lib").resolve("libjsig.so").toString();
    }
}
