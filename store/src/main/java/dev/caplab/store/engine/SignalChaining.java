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
 * on purpose), so one arriving in that window kills the process (SIGSEGV or SIGILL) whenever connections open while
 * other threads compute or collect, as the sink's insert connections do. Restoring the handlers after the call does
 * not close the window. With libjsig preloaded, the JVM keeps its handlers installed and records chDB's as chained
 * ones, which is how HotSpot documents living with a native library that sets handlers.
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
