package dev.caplab.store.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BOOLEAN;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** Downcall handles for the part of chdb.h the engine uses; signatures follow chdb.h of chDB 26.x. */
final class ChdbNative {

    final MethodHandle setSignalHandlersEnabled; // void (bool)
    final MethodHandle connect;                  // chdb_connection* (int, char**)
    final MethodHandle closeConn;                // void (chdb_connection*)
    final MethodHandle queryN;                   // chdb_result* (conn, char*, size_t, char*, size_t)
    final MethodHandle queryWithParamsN;         // chdb_result* (conn, q, qlen, f, flen, names, nlens, vals, vlens, n)
    final MethodHandle resultBuffer;             // char* (chdb_result*)
    final MethodHandle resultLength;             // size_t (chdb_result*)
    final MethodHandle resultElapsed;            // double (chdb_result*)
    final MethodHandle resultRowsRead;           // uint64 (chdb_result*)
    final MethodHandle resultBytesRead;
    final MethodHandle resultRowsWritten;
    final MethodHandle resultBytesWritten;
    final MethodHandle resultError;              // const char* (chdb_result*)
    final MethodHandle destroyQueryResult;       // void (chdb_result*)

    private ChdbNative(SymbolLookup lookup) {
        Linker linker = Linker.nativeLinker();
        setSignalHandlersEnabled = bind(linker, lookup, "chdb_set_signal_handlers_enabled",
                FunctionDescriptor.ofVoid(JAVA_BOOLEAN));
        connect = bind(linker, lookup, "chdb_connect", FunctionDescriptor.of(ADDRESS, JAVA_INT, ADDRESS));
        closeConn = bind(linker, lookup, "chdb_close_conn", FunctionDescriptor.ofVoid(ADDRESS));
        queryN = bind(linker, lookup, "chdb_query_n",
                FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG));
        queryWithParamsN = bind(linker, lookup, "chdb_query_with_params_n",
                FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG,
                        ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG));
        resultBuffer = bind(linker, lookup, "chdb_result_buffer", FunctionDescriptor.of(ADDRESS, ADDRESS));
        resultLength = bind(linker, lookup, "chdb_result_length", FunctionDescriptor.of(JAVA_LONG, ADDRESS));
        resultElapsed = bind(linker, lookup, "chdb_result_elapsed", FunctionDescriptor.of(JAVA_DOUBLE, ADDRESS));
        resultRowsRead = bind(linker, lookup, "chdb_result_rows_read", FunctionDescriptor.of(JAVA_LONG, ADDRESS));
        resultBytesRead = bind(linker, lookup, "chdb_result_bytes_read", FunctionDescriptor.of(JAVA_LONG, ADDRESS));
        resultRowsWritten = bind(linker, lookup, "chdb_result_rows_written",
                FunctionDescriptor.of(JAVA_LONG, ADDRESS));
        resultBytesWritten = bind(linker, lookup, "chdb_result_bytes_written",
                FunctionDescriptor.of(JAVA_LONG, ADDRESS));
        resultError = bind(linker, lookup, "chdb_result_error", FunctionDescriptor.of(ADDRESS, ADDRESS));
        destroyQueryResult = bind(linker, lookup, "chdb_destroy_query_result", FunctionDescriptor.ofVoid(ADDRESS));
    }

    static ChdbNative load(Path libchdb) {
        try {
            return new ChdbNative(SymbolLookup.libraryLookup(libchdb, Arena.global()));
        } catch (IllegalArgumentException | IllegalCallerException e) {
            throw new EngineException("cannot load " + libchdb + " (run the JVM with"
                    + " --enable-native-access=ALL-UNNAMED; refetch with " + ChdbLibrary.FETCH_COMMAND + ")", e);
        }
    }

    private static MethodHandle bind(Linker linker, SymbolLookup lookup, String name, FunctionDescriptor fd) {
        MemorySegment symbol = lookup.find(name).orElseThrow(() -> new EngineException(
                "libchdb.so lacks symbol " + name + "; expected chDB " + ChdbLibrary.DEFAULT_VERSION));
        return linker.downcallHandle(symbol, fd);
    }
}
