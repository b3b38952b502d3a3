package dev.caplab.store.engine;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.EnumMap;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded ClickHouse engine (chDB) bound through FFM: a primary connection plus lazily opened read-only ones,
 * each serializing its own calls. Measured on chDB 26.5.3: two connections to one data dir run queries at the same
 * time (a {@code SELECT 42} on one answered in 4 ms while a 13 s cross join ran on the other; behind one shared lock
 * it waited 10.3 s), so a reader's query never holds the connection caplab's own writes use.
 *
 * <p>chDB reads the host process's stdin as data for an INSERT whenever it is readable (chdb-io/chdb-core#239):
 * a process embedding it must not have data waiting on fd 0 (the launcher starts {@code caplab up} with
 * {@code </dev/null}; the build talks to test JVMs over TCP, not their stdin).
 *
 * <p>Each chDB connection resets the JVM's SIGSEGV handler while it opens: a JVM embedding it preloads
 * {@code libjsig.so} ({@link SignalChaining}; {@link #signalChaining()} says whether this one did).
 *
 * <p>chDB runs a single embedded server per process, so this is a guarded process-wide singleton:
 * opening the same data dir again returns the open engine, a different one fails.
 */
public final class ChdbEngine implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ChdbEngine.class);
    private static final Object OPEN_LOCK = new Object();
    /** Read once: a library cannot be preloaded after the process started. */
    private static final boolean SIGNAL_CHAINING = SignalChaining.preloaded();
    private static final int TOO_MANY_ROWS_OR_BYTES = 396;
    private static ChdbEngine open;
    private static ChdbNative loaded;
    private static Path loadedFrom;

    private final ChdbNative chdb;
    private final Path dataDir;
    private final Map<Access, Connection> connections = new EnumMap<>(Access.class);
    /**
     * Connections of {@link #bulkInsert}: one more whenever every one is busy, so there are as many as inserts ever
     * ran at once (one per sink worker); guarded by its own monitor when it grows.
     */
    private final List<Connection> bulkConnections = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile boolean closed;
    private Path spoolDir;

    private ChdbEngine(ChdbNative chdb, Path dataDir, MemorySegment connectionPtr) {
        this.chdb = chdb;
        this.dataDir = dataDir;
        for (Access access : Access.values()) {
            connections.put(access, new Connection());
        }
        connections.get(Access.READ_WRITE).bind(connectionPtr);
    }

    private static MemorySegment deref(MemorySegment connectionPtr) {
        return connectionPtr.reinterpret(ValueLayout.ADDRESS.byteSize()).get(ValueLayout.ADDRESS, 0);
    }

    /** Opens the engine on {@code dataDir} with the library found by {@link ChdbLibrary#locate()}. */
    public static ChdbEngine open(Path dataDir) {
        return open(ChdbLibrary.locate(), dataDir);
    }

    /** Opens (or returns the already open) engine on {@code dataDir}, loading {@code libchdb}. */
    public static ChdbEngine open(Path libchdb, Path dataDir) {
        Objects.requireNonNull(libchdb, "libchdb");
        Path dir = canonical(dataDir);
        synchronized (OPEN_LOCK) {
            if (open != null) {
                if (open.dataDir.equals(dir)) {
                    return open;
                }
                throw new EngineException("chDB is already open on " + open.dataDir + " in this JVM; it cannot open "
                        + dir + " as well (one embedded engine per process; close the first or use a child JVM)");
            }
            if (loaded == null) {
                loaded = ChdbNative.load(libchdb);
                loadedFrom = libchdb;
            } else if (!loadedFrom.equals(libchdb)) {
                throw new EngineException("libchdb already loaded from " + loadedFrom + ", not " + libchdb);
            }
            open = connect(loaded, dir);
            return open;
        }
    }

    private static ChdbEngine connect(ChdbNative chdb, Path dir) {
        if (!SIGNAL_CHAINING) {
            LOG.warn("libjsig.so is not preloaded: while chDB opens a connection (about 15 ms, at start and whenever "
                    + "a reader or insert connection is added) the JVM has no SIGSEGV handler, and a GC then kills "
                    + "the process. Start the JVM with LD_PRELOAD={} (./caplab and the image do)",
                    SignalChaining.preloadFor(Path.of(System.getProperty("java.home"))));
        }
        ChdbEngine engine = new ChdbEngine(chdb, dir, rawConnect(chdb, dir));
        // chDB defaults async_insert to true; inserts must be synchronous so dedup tokens and reads-after-write hold.
        engine.query("SET async_insert = 0", "TabSeparated");
        return engine;
    }

    private static MemorySegment rawConnect(ChdbNative chdb, Path dir) {
        try (Arena arena = Arena.ofConfined()) {
            // chDB must not keep the JVM's signal handlers replaced: the JVM relies on SIGSEGV for null checks and
            // safepoints. Disabling chDB's handlers itself resets SIGSEGV & co. to SIG_DFL for the whole call. With
            // libjsig preloaded the JVM's handlers stay installed; without it, save before and restore after, which
            // leaves a window in which a safepoint kills the process (SignalChaining)
            JvmSignalHandlers jvmHandlers = SIGNAL_CHAINING ? null : JvmSignalHandlers.save();
            // ClickHouse's memory worker reads the cgroup's memory figures several times a second by default (the
            // thread an idle caplab spent most CPU on inside chDB); once a second still purges jemalloc's dirty
            // pages soon enough, and chDB does not correct its memory tracker from them.
            List<String> args = List.of("clickhouse", "--path=" + dir, "--memory_worker_period_ms=1000");
            MemorySegment argv = arena.allocate(ValueLayout.ADDRESS, args.size());
            for (int i = 0; i < args.size(); i++) {
                argv.setAtIndex(ValueLayout.ADDRESS, i, arena.allocateFrom(args.get(i)));
            }
            MemorySegment connPtr;
            try {
                chdb.setSignalHandlersEnabled.invokeExact(false);
                connPtr = (MemorySegment) chdb.connect.invokeExact(args.size(), argv);
            } finally {
                if (jvmHandlers != null) {
                    jvmHandlers.restore();
                }
            }
            if (connPtr.equals(MemorySegment.NULL)) {
                throw new EngineException("chdb_connect failed for data dir " + dir
                        + " (is another process using it, or is it not writable?)");
            }
            return connPtr;
        } catch (EngineException e) {
            throw e;
        } catch (Throwable t) {
            throw new EngineException("chdb_connect failed for data dir " + dir, t);
        }
    }

    private static Path canonical(Path dataDir) {
        try {
            Files.createDirectories(dataDir);
            return dataDir.toRealPath();
        } catch (IOException e) {
            throw new EngineException("cannot create chDB data dir " + dataDir, e);
        }
    }

    /** Whether the JVM's signal-chaining library is preloaded, so opening a connection cannot crash the JVM. */
    public static boolean signalChaining() {
        return SIGNAL_CHAINING;
    }

    /** The data directory this engine stores its tables in. */
    public Path dataDir() {
        return dataDir;
    }

    /** Runs one statement; {@code format} is the output format unless the statement names its own. */
    public QueryResult query(String sql, String format) {
        return query(sql.getBytes(StandardCharsets.UTF_8), format, Map.of());
    }

    /** Runs one statement binding {@code {name:Type}} placeholders from {@code params}, never by interpolation. */
    public QueryResult query(String sql, String format, Map<String, String> params) {
        return query(sql.getBytes(StandardCharsets.UTF_8), format, params);
    }

    /**
     * Runs one statement given as raw bytes; binary-safe, so {@code INSERT ... FORMAT RowBinary} may be
     * followed by its binary data in the same buffer.
     */
    public QueryResult query(byte[] statement, String format, Map<String, String> params) {
        return query(Access.READ_WRITE, statement, format, params);
    }

    /**
     * Runs one statement on the connection for {@code access}. {@link Access#READ_ONLY} and {@link Access#READER}
     * use their own connections to the same data dir pinned to {@code readonly=2}: they may change their own
     * settings but can never write data nor lower {@code readonly}, whatever the statement text says. Each
     * connection serializes its own statements; statements on different connections run concurrently.
     */
    public QueryResult query(Access access, byte[] statement, String format, Map<String, String> params) {
        return query(access, statement, format, params, Long.MAX_VALUE);
    }

    /**
     * Like {@link #query(Access, byte[], String, Map)}, failing with code 396 (TOO_MANY_ROWS_OR_BYTES) before
     * copying a formatted result longer than {@code maxResultBytes}: the engine's own {@code max_result_bytes}
     * counts blocks in memory, and a constant column or a verbose format formats to far more (measured: 40 MB of
     * CSV passed a 1 MB limit).
     */
    public QueryResult query(Access access, byte[] statement, String format, Map<String, String> params,
                             long maxResultBytes) {
        Objects.requireNonNull(access, "access");
        Objects.requireNonNull(statement, "statement");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(params, "params");
        Connection connection = connections.get(access);
        connection.lock.lock();
        return runLocked(connection, access == Access.READ_WRITE ? c -> c.conn : this::readOnlyConnection,
                statement, format, params, maxResultBytes);
    }

    /**
     * Runs {@code statement} on {@code connection}, which the caller locked and this unlocks; {@code opened} gives
     * its chDB connection, opening it on first use.
     */
    private QueryResult runLocked(Connection connection, Opener opened, byte[] statement, String format,
                                  Map<String, String> params, long maxResultBytes) {
        try {
            if (closed) {
                throw new EngineException("chDB engine on " + dataDir + " is closed");
            }
            return execute(opened.open(connection), statement, format, params, maxResultBytes);
        } catch (ClickHouseException | EngineException e) {
            throw e;
        } catch (Throwable t) {
            throw new EngineException("chDB call failed on " + dataDir, t);
        } finally {
            connection.lock.unlock();
        }
    }

    /** A connection's chDB handle, opened on first use under the connection's lock. */
    @FunctionalInterface
    private interface Opener {
        MemorySegment open(Connection connection) throws Throwable;
    }

    /** Runs {@code statement} on {@code conn}, whose connection's lock the caller holds. */
    private QueryResult execute(MemorySegment conn, byte[] statement, String format, Map<String, String> params,
                                long maxResultBytes) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sql = arena.allocate(statement.length + 1L);
            MemorySegment.copy(statement, 0, sql, ValueLayout.JAVA_BYTE, 0, statement.length);
            byte[] fmt = format.getBytes(StandardCharsets.US_ASCII);
            MemorySegment fmtSeg = arena.allocateFrom(format);
            MemorySegment result = params.isEmpty()
                    ? (MemorySegment) chdb.queryN.invokeExact(conn, sql, (long) statement.length, fmtSeg,
                            (long) fmt.length)
                    : invokeWithParams(conn, arena, sql, statement.length, fmtSeg, fmt.length, params);
            try {
                return consume(result, statement, maxResultBytes);
            } catch (ClickHouseException e) {
                drain(conn, arena);
                throw e;
            }
        }
    }

    /**
     * Measured with chDB 26.5.3: when a multi-statement query fails after an earlier statement produced output,
     * that output is returned again at the head of the next query's result. A throwaway query absorbs it.
     */
    private void drain(MemorySegment conn, Arena arena) throws Throwable {
        byte[] probe = "SELECT 1".getBytes(StandardCharsets.US_ASCII);
        MemorySegment fmt = arena.allocateFrom("TabSeparated");
        consume((MemorySegment) chdb.queryN.invokeExact(conn, arena.allocateFrom("SELECT 1"), (long) probe.length,
                fmt, fmt.byteSize() - 1), probe, Long.MAX_VALUE);
    }

    /** Opens {@code connection} on first use, pinned to {@code readonly=2}; its lock is held by the caller. */
    private MemorySegment readOnlyConnection(Connection connection) throws Throwable {
        if (connection.conn.equals(MemorySegment.NULL)) {
            MemorySegment ptr = rawConnect(chdb, dataDir);
            MemorySegment conn = deref(ptr);
            try (Arena arena = Arena.ofConfined()) {
                byte[] pin = "SET readonly = 2".getBytes(StandardCharsets.US_ASCII);
                MemorySegment fmt = arena.allocateFrom("TabSeparated");
                consume((MemorySegment) chdb.queryN.invokeExact(conn, arena.allocateFrom("SET readonly = 2"),
                        (long) pin.length, fmt, fmt.byteSize() - 1), pin, Long.MAX_VALUE);
            } catch (Throwable t) {
                chdb.closeConn.invokeExact(ptr);
                throw t;
            }
            connection.bind(ptr);
        }
        return connection.conn;
    }

    /** One chDB connection and the lock serializing its calls (a connection runs one statement at a time). */
    private static final class Connection {
        final ReentrantLock lock = new ReentrantLock();
        MemorySegment ptr = MemorySegment.NULL;
        MemorySegment conn = MemorySegment.NULL;

        void bind(MemorySegment connectionPtr) {
            ptr = connectionPtr;
            conn = deref(connectionPtr);
        }
    }

    private MemorySegment invokeWithParams(MemorySegment connection, Arena arena, MemorySegment sql,
                                           long sqlLength, MemorySegment fmt, long fmtLength,
                                           Map<String, String> params) throws Throwable {
        int n = params.size();
        MemorySegment names = arena.allocate(ValueLayout.ADDRESS, n);
        MemorySegment nameLengths = arena.allocate(ValueLayout.JAVA_LONG, n);
        MemorySegment values = arena.allocate(ValueLayout.ADDRESS, n);
        MemorySegment valueLengths = arena.allocate(ValueLayout.JAVA_LONG, n);
        int i = 0;
        for (Map.Entry<String, String> e : params.entrySet()) {
            byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
            byte[] value = e.getValue().getBytes(StandardCharsets.UTF_8);
            names.setAtIndex(ValueLayout.ADDRESS, i, arena.allocateFrom(ValueLayout.JAVA_BYTE, name));
            nameLengths.setAtIndex(ValueLayout.JAVA_LONG, i, name.length);
            // allocateFrom of an empty array would be a zero-length segment; keep a valid pointer.
            values.setAtIndex(ValueLayout.ADDRESS, i, value.length == 0 ? arena.allocate(1)
                    : arena.allocateFrom(ValueLayout.JAVA_BYTE, value));
            valueLengths.setAtIndex(ValueLayout.JAVA_LONG, i, value.length);
            i++;
        }
        return (MemorySegment) chdb.queryWithParamsN.invokeExact(connection, sql, sqlLength, fmt, fmtLength,
                names, nameLengths, values, valueLengths, (long) n);
    }

    private QueryResult consume(MemorySegment result, byte[] statement, long maxResultBytes) throws Throwable {
        if (result.equals(MemorySegment.NULL)) {
            throw new EngineException("chDB returned no result for: " + preview(statement));
        }
        try {
            MemorySegment error = (MemorySegment) chdb.resultError.invokeExact(result);
            if (!error.equals(MemorySegment.NULL)) {
                String message = error.reinterpret(Long.MAX_VALUE).getString(0);
                if (!message.isEmpty()) {
                    throw ClickHouseException.fromEngineMessage(message);
                }
            }
            long length = (long) chdb.resultLength.invokeExact(result);
            if (length > maxResultBytes) {
                throw new ClickHouseException(TOO_MANY_ROWS_OR_BYTES, "Code: 396. DB::Exception: Limit for result"
                        + " exceeded, max bytes: " + maxResultBytes + ", current bytes: " + length
                        + " (formatted result). (TOO_MANY_ROWS_OR_BYTES)");
            }
            MemorySegment buffer = (MemorySegment) chdb.resultBuffer.invokeExact(result);
            byte[] data = length == 0 || buffer.equals(MemorySegment.NULL) ? new byte[0]
                    : buffer.reinterpret(length).toArray(ValueLayout.JAVA_BYTE);
            return new QueryResult(data,
                    (long) chdb.resultRowsRead.invokeExact(result),
                    (long) chdb.resultBytesRead.invokeExact(result),
                    (long) chdb.resultRowsWritten.invokeExact(result),
                    (long) chdb.resultBytesWritten.invokeExact(result),
                    Math.max(0.0, (double) chdb.resultElapsed.invokeExact(result)));
        } finally {
            chdb.destroyQueryResult.invokeExact(result);
        }
    }

    private static String preview(byte[] statement) {
        int n = Math.min(statement.length, 200);
        return new String(statement, 0, n, StandardCharsets.UTF_8) + (statement.length > n ? "..." : "");
    }

    /**
     * Inserts {@code data} encoded in {@code format} (e.g. RowBinary, TSV, JSONEachRow) with
     * {@code insertHead} = {@code INSERT INTO t [(cols)] [SETTINGS ...]}; the data goes through a spool file
     * read with {@code FROM INFILE} (see {@link InfileInsert} for why never inline), deleted afterwards.
     */
    public QueryResult insert(String insertHead, String format, byte[] data) {
        Objects.requireNonNull(data, "data");
        return insert(insertHead, format, data, data.length);
    }

    /** As {@link #insert(String, String, byte[])} with the first {@code length} bytes of {@code data}. */
    public QueryResult insert(String insertHead, String format, byte[] data, int length) {
        Objects.requireNonNull(data, "data");
        Objects.checkFromIndexSize(0, length, data.length);
        return insert(insertHead, format, out -> out.write(data, 0, length));
    }

    /** Writes INSERT data into the spool file; the stream is unbuffered, so write in large pieces. */
    @FunctionalInterface
    public interface InsertData {
        void writeTo(java.io.OutputStream spool) throws IOException;
    }

    /**
     * As {@link #insert(String, String, byte[])}, the data written by {@code data} straight into the spool file, so
     * a caller encoding a large batch never holds it whole in memory.
     */
    public QueryResult insert(String insertHead, String format, InsertData data) {
        return spooled(insertHead, format, data,
                statement -> query(Access.READ_WRITE, statement, "TabSeparated", Map.of()));
    }

    /**
     * As {@link #insert(String, String, InsertData)}, on a connection of its own (one per concurrent caller)
     * instead of the primary one, for high-volume inserts whose statement names its database and pins every setting
     * it needs (a bulk connection keeps no session: no USE, no SET). Why: chDB parses an insert's rows on the
     * calling connection, so behind the primary connection's lock two sink workers' inserts ran one after the
     * other, and each held up the derived rows and DDL that connection serves (bench/README.md, "Sink workers").
     */
    public QueryResult bulkInsert(String insertHead, String format, InsertData data) {
        return spooled(insertHead, format, data, this::onBulkConnection);
    }

    private QueryResult spooled(String insertHead, String format, InsertData data,
                                java.util.function.Function<byte[], QueryResult> run) {
        Objects.requireNonNull(data, "data");
        Path file;
        try {
            file = Files.createTempFile(spoolDir(), "insert-", ".data");
        } catch (IOException e) {
            throw new EngineException("cannot create an INSERT spool file under " + spoolDir, e);
        }
        try (var out = Files.newOutputStream(file)) {
            data.writeTo(out);
        } catch (IOException | java.io.UncheckedIOException e) {
            deleteSpool(file);
            throw new EngineException("cannot spool INSERT data to " + file, e);
        } catch (RuntimeException e) {
            deleteSpool(file);
            throw e;
        }
        try {
            return run.apply(InfileInsert.statement(insertHead, file, format).getBytes(StandardCharsets.UTF_8));
        } finally {
            deleteSpool(file);
        }
    }

    private QueryResult onBulkConnection(byte[] statement) {
        return runLocked(claimBulkConnection(), this::writableConnection, statement, "TabSeparated", Map.of(),
                Long.MAX_VALUE);
    }

    /** A free bulk connection, locked; when all are busy, a new one (opened by its first statement). */
    private Connection claimBulkConnection() {
        for (Connection c : bulkConnections) {
            if (c.lock.tryLock()) {
                return c;
            }
        }
        synchronized (bulkConnections) {
            Connection fresh = new Connection();
            fresh.lock.lock();
            bulkConnections.add(fresh);
            return fresh;
        }
    }

    /** Opens {@code connection} on first use, writable, inserts synchronous; its lock is held by the caller. */
    private MemorySegment writableConnection(Connection connection) throws Throwable {
        if (connection.conn.equals(MemorySegment.NULL)) {
            MemorySegment ptr = rawConnect(chdb, dataDir);
            try {
                execute(deref(ptr), "SET async_insert = 0".getBytes(StandardCharsets.US_ASCII), "TabSeparated",
                        Map.of(), Long.MAX_VALUE);
            } catch (Throwable t) {
                chdb.closeConn.invokeExact(ptr);
                throw t;
            }
            connection.bind(ptr);
        }
        return connection.conn;
    }

    private static void deleteSpool(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            System.getLogger(ChdbEngine.class.getName()).log(System.Logger.Level.WARNING,
                    "could not delete INSERT spool file " + file, e);
        }
    }

    private synchronized Path spoolDir() throws IOException {
        if (spoolDir == null) {
            spoolDir = Files.createTempDirectory("caplab-chdb-spool-");
            spoolDir.toFile().deleteOnExit();
        }
        return spoolDir;
    }

    /** Which connection a statement runs on. */
    public enum Access {
        /** The primary connection: reads, writes, DDL. */
        READ_WRITE,
        /** A connection pinned to {@code readonly=2}: reads and setting changes only. */
        READ_ONLY,
        /**
         * Another connection pinned to {@code readonly=2}, for callers outside caplab: their queries queue on it,
         * never on the connections caplab's own roles use.
         */
        READER
    }

    /** Closes the connection, which shuts the embedded server down; the data stays in {@link #dataDir()}. */
    @Override
    public void close() {
        synchronized (OPEN_LOCK) {
            // Every lock, in one fixed order, so no statement is running on a connection being closed.
            connections.values().forEach(c -> c.lock.lock());
            List<Connection> bulk;
            boolean wasClosed;
            synchronized (bulkConnections) {
                bulk = List.copyOf(bulkConnections);
                bulk.forEach(c -> c.lock.lock());
                // set while no bulk connection can be added: one added later sees it before it opens
                wasClosed = closed;
                closed = true;
            }
            try {
                if (wasClosed) {
                    return;
                }
                // The primary connection last: closing it shuts the embedded server down. The read-only ones
                // first: with a bulk connection closed before them, the JVM died of SIGSEGV at exit (chDB 26.5.3,
                // ChdbEngineIT then ClickHouseHttpServerIT in one JVM).
                List<Connection> inClosingOrder = new java.util.ArrayList<>();
                inClosingOrder.add(connections.get(Access.READER));
                inClosingOrder.add(connections.get(Access.READ_ONLY));
                inClosingOrder.addAll(bulk);
                inClosingOrder.add(connections.get(Access.READ_WRITE));
                for (Connection c : inClosingOrder) {
                    if (!c.ptr.equals(MemorySegment.NULL)) {
                        chdb.closeConn.invokeExact(c.ptr);
                    }
                }
            } catch (Throwable t) {
                throw new EngineException("chdb_close_conn failed for " + dataDir, t);
            } finally {
                bulk.forEach(c -> c.lock.unlock());
                connections.values().forEach(c -> c.lock.unlock());
                if (open == this) {
                    open = null;
                }
            }
        }
    }
}
