package dev.caplab.store.http;

import dev.caplab.store.engine.ChdbEngine;
import dev.caplab.store.engine.ChdbEngine.Access;
import dev.caplab.store.engine.ClickHouseException;
import dev.caplab.store.engine.QueryResult;
import dev.caplab.store.sql.PureFunctions;
import dev.caplab.store.sql.StatementPolicy;
import dev.caplab.store.sql.StatementRefusedException;

import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;

/**
 * Gives each HTTP request the stateless view ClickHouse's HTTP interface promises (its own database and
 * settings) on top of chDB's stateful connections, by switching database and settings before each statement.
 *
 * <p>Each connection has its own lock, held from the switch to the end of the statement; caplab's requests and
 * readers' requests use different connections, so a reader's query never holds what the sink needs, and a
 * query calling back into caplab could never wait on its own lock (readers cannot call out: no url()).
 */
final class EngineSessions {

    private static final Pattern USE_STATEMENT = Pattern.compile("(?is)(^|;)\\s*USE\\s");
    // The FORMAT clause ends formatQuery's canonical text when there is one; EXPLAIN would apply it to its output.
    private static final Pattern TRAILING_FORMAT = Pattern.compile("\\s+FORMAT\\s+(?:[A-Za-z_][A-Za-z0-9_]*|`[^`]+`)$");
    private static final String DEFAULT_DATABASE = "default";
    /** Never equal to a wanted value, so the setting is set (or reset) again. */
    private static final String UNKNOWN = "\u0000unknown";

    private final ChdbEngine engine;
    private final Map<Access, ConnectionState> states = new EnumMap<>(Access.class);
    /** Guarded by the readers' connection lock. */
    private final AllowedStatements allowed = new AllowedStatements();
    /** Guarded by the readers' connection lock; read on first use. */
    private PureFunctions functions;

    // One per engine: the connections' state is the engine's, whichever server (tests start several) uses it.
    private static final Map<ChdbEngine, EngineSessions> BY_ENGINE = new IdentityHashMap<>();

    /** The sessions of {@code engine}, shared by every HTTP server serving it. */
    static synchronized EngineSessions of(ChdbEngine engine) {
        return BY_ENGINE.computeIfAbsent(engine, EngineSessions::new);
    }

    private EngineSessions(ChdbEngine engine) {
        this.engine = Objects.requireNonNull(engine, "engine");
        // Baselines are what a request without settings must see: what ChdbEngine pinned at connect.
        states.put(Access.READ_WRITE, new ConnectionState(Map.of("async_insert", "0")));
        states.put(Access.READ_ONLY, new ConnectionState(Map.of()));
        states.put(Access.READER, new ConnectionState(Map.of()));
    }

    /** Runs a request of caplab's own: any statement, on the primary connection (read-only one if asked). */
    QueryResult execute(ClickHouseRequest request) {
        Access access = request.readOnly() ? Access.READ_ONLY : Access.READ_WRITE;
        ConnectionState state = states.get(access);
        state.lock.lock();
        try {
            return executeLocked(access, state, request);
        } finally {
            state.lock.unlock();
        }
    }

    /**
     * Runs a reader's request: the statement is parsed by the engine (never executed) to check it is one
     * statement the {@link StatementPolicy} allows, then that canonical text, and nothing else, runs on
     * the readers' connection with {@code settings} and {@code database} (both already checked). A statement
     * allowed before under the same parameters, settings, database and readable databases skips the judging.
     */
    QueryResult executeReader(ClickHouseRequest request, Map<String, String> settings, String database,
                              long maxResultBytes, Set<String> readableDatabases) {
        if (request.insert().isPresent()) {
            throw new ClickHouseException(ReaderSettings.READONLY, "Code: 164. DB::Exception: Cannot execute query"
                    + " in readonly mode: readers of the embedded engine cannot insert. (READONLY)");
        }
        ConnectionState state = states.get(Access.READER);
        state.lock.lock();
        try {
            state.useDatabase(Access.READER, database);
            state.applySettings(Access.READER, settings);
            AllowedStatements.Key key = new AllowedStatements.Key(new String(request.statement(),
                    StandardCharsets.UTF_8), request.params(), settings, database, readableDatabases);
            String canonical = allowed.canonicalText(key);
            if (canonical == null) {
                canonical = judge(key);
                allowed.allowed(key, canonical);
            }
            // The formatted result is limited too, not only the blocks the engine counts for max_result_bytes.
            return engine.query(Access.READER, utf8(canonical), request.format(), request.params(), maxResultBytes);
        } finally {
            state.lock.unlock();
        }
    }

    /** The statement's canonical text, once the policy allowed it; throws when it does not. */
    private String judge(AllowedStatements.Key key) {
        // formatQuerySingleLine parses exactly one statement (a second one is a syntax error) without running it.
        String canonical = engine.query(Access.READER, utf8("SELECT formatQuerySingleLine({statement:String})"),
                "TabSeparatedRaw", Map.of("statement", key.statement())).text().stripTrailing();
        // The format travels with the request (the HTTP layer answers in it); the policy judges the rest.
        String judged = TRAILING_FORMAT.matcher(canonical).replaceFirst("");
        String ast = engine.query(Access.READER, utf8("EXPLAIN AST " + judged), "TabSeparatedRaw", key.params())
                .text();
        Set<String> databases = Set.copyOf(rows("SHOW DATABASES").stream().map(List::getFirst).toList());
        try {
            new StatementPolicy(key.readableDatabases(), ReaderLimits.READABLE_SYSTEM_TABLES, functions())
                    .check(judged, ast.lines().toList(), databases);
        } catch (StatementRefusedException e) {
            throw new ClickHouseException(RequestRefusedException.ACCESS_DENIED, "Code: 497. DB::Exception: " + HttpSettings.READER_USER
                    + ": Not enough privileges: " + e.getMessage() + ". (ACCESS_DENIED)");
        }
        return canonical;
    }

    /** The engine's function catalogue, read once: it changes only with the engine. */
    private PureFunctions functions() {
        if (functions == null) {
            functions = PureFunctions.of(rows(PureFunctions.CATALOGUE), rows(PureFunctions.COMBINATORS));
        }
        return functions;
    }

    /** Tab-separated rows of one of caplab's own statements on the readers' connection. */
    private List<List<String>> rows(String sql) {
        return engine.query(Access.READER, utf8(sql), "TabSeparatedRaw", Map.of()).text().lines()
                .filter(l -> !l.isEmpty()).map(l -> List.of(l.split("\t", -1))).toList();
    }

    private QueryResult executeLocked(Access access, ConnectionState state, ClickHouseRequest request) {
        // An INSERT's data is not SQL: only its head can hold statements.
        String head = request.insert().map(InsertData::head).orElseGet(() -> new String(request.statement(), 0,
                Math.min(request.statement().length, 4096), StandardCharsets.UTF_8));
        Set<String> assigned = SetStatements.assignedNames(head);
        if (assigned.stream().anyMatch("readonly"::equalsIgnoreCase)) {
            // A connection's readonly level is fixed (it decides which chDB connection serves the request).
            throw new ClickHouseException(ClickHouseRequest.BAD_ARGUMENTS, "Code: 36. DB::Exception: SET readonly"
                    + " is not supported by the embedded HTTP interface; pass readonly=1 as a URL parameter."
                    + " (BAD_ARGUMENTS)");
        }
        state.useDatabase(access, request.database().orElse(DEFAULT_DATABASE));
        state.applySettings(access, request.settings());
        try {
            if (request.insert().isPresent()) {
                InsertData insert = request.insert().get();
                if (access == Access.READ_ONLY) {
                    throw new ClickHouseException(164, "Code: 164. DB::Exception: Cannot execute query in readonly"
                            + " mode. (READONLY)");
                }
                return engine.insert(insert.head(), insert.format(), insert.data());
            }
            return engine.query(access, request.statement(), request.format(), request.params());
        } finally {
            if (USE_STATEMENT.matcher(head).find()) {
                state.currentDatabase = null;
            }
            state.forget(assigned);
        }
    }

    /** What one chDB connection currently has set, so switching costs nothing when nothing changes. */
    private final class ConnectionState {
        private final ReentrantLock lock = new ReentrantLock();
        private final Map<String, String> baseline;
        private final Map<String, String> applied = new HashMap<>();
        private String currentDatabase = DEFAULT_DATABASE;

        ConnectionState(Map<String, String> baseline) {
            this.baseline = baseline;
        }

        void useDatabase(Access access, String database) {
            if (!database.equals(currentDatabase)) {
                currentDatabase = null;
                engine.query(access, utf8("USE " + SqlText.quoteIdentifier(database)), "TabSeparated", Map.of());
                currentDatabase = database;
            }
        }

        /** The statement changed these itself: reset them on the next request, as a new HTTP request would. */
        void forget(Set<String> names) {
            names.forEach(name -> applied.put(name, UNKNOWN));
        }

        void applySettings(Access access, Map<String, String> wanted) {
            Map<String, String> changes = new HashMap<>();
            for (Map.Entry<String, String> e : wanted.entrySet()) {
                if (!e.getValue().equals(applied.get(e.getKey()))) {
                    changes.put(e.getKey(), SqlText.quoteString(e.getValue()));
                }
            }
            for (String name : applied.keySet()) {
                if (!wanted.containsKey(name)) {
                    String base = baseline.get(name);
                    changes.put(name, base == null ? "DEFAULT" : SqlText.quoteString(base));
                }
            }
            if (changes.isEmpty()) {
                return;
            }
            String set = changes.entrySet().stream().map(e -> e.getKey() + " = " + e.getValue())
                    .collect(Collectors.joining(", ", "SET ", ""));
            // On failure nothing is known about what stuck: restore everything on the next request.
            Map<String, String> before = new HashMap<>(applied);
            applied.clear();
            try {
                engine.query(access, utf8(set), "TabSeparated", Map.of());
            } catch (RuntimeException e) {
                before.keySet().forEach(k -> applied.put(k, UNKNOWN));
                wanted.keySet().forEach(k -> applied.put(k, UNKNOWN));
                throw e;
            }
            applied.putAll(wanted);
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
