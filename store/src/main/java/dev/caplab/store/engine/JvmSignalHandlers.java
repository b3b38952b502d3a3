package dev.caplab.store.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * Saves and restores the JVM's signal dispositions around chdb_connect.
 *
 * <p>Measured with chDB 26.5.3: {@code chdb_set_signal_handlers_enabled(false)} (and so chdb_connect after it)
 * leaves SIGILL, SIGBUS, SIGFPE and SIGSEGV at SIG_DFL. The JVM needs its SIGSEGV handler for implicit null
 * checks in JIT-compiled code, so without the restore the first such NullPointerException kills the process.
 * The fallback when libjsig is not preloaded ({@link SignalChaining}): it cannot protect the call's own duration.
 */
final class JvmSignalHandlers {

    // Linux x86-64 glibc: struct sigaction is 152 bytes; a larger buffer costs nothing and tolerates padding.
    private static final long SIGACTION_BYTES = 256;
    private static final int MAX_SIGNAL = 31;
    private static final int SIGKILL = 9;
    private static final int SIGSTOP = 19;
    private static final MethodHandle SIGACTION = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("sigaction")
                    .orElseThrow(() -> new EngineException("libc lacks sigaction; chDB needs Linux x86-64")),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment[] saved = new MemorySegment[MAX_SIGNAL + 1];

    private JvmSignalHandlers() {
    }

    /** Captures the current disposition of every catchable signal. */
    static JvmSignalHandlers save() {
        JvmSignalHandlers handlers = new JvmSignalHandlers();
        for (int sig = 1; sig <= MAX_SIGNAL; sig++) {
            if (sig == SIGKILL || sig == SIGSTOP) {
                continue;
            }
            MemorySegment old = handlers.arena.allocate(SIGACTION_BYTES);
            if (call(sig, MemorySegment.NULL, old) == 0) {
                handlers.saved[sig] = old;
            }
        }
        return handlers;
    }

    /** Puts back every captured disposition and releases the buffers; fails if the kernel refuses one. */
    void restore() {
        try (arena) {
            for (int sig = 1; sig <= MAX_SIGNAL; sig++) {
                if (saved[sig] != null && call(sig, saved[sig], MemorySegment.NULL) != 0) {
                    throw new EngineException("could not restore the JVM's handler for signal " + sig
                            + " after chdb_connect; the JVM would crash on its next implicit null check");
                }
            }
        }
    }

    private static int call(int sig, MemorySegment act, MemorySegment oldAct) {
        try {
            return (int) SIGACTION.invokeExact(sig, act, oldAct);
        } catch (Throwable t) {
            throw new EngineException("sigaction(" + sig + ") failed", t);
        }
    }
}
