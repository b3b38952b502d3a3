package dev.caplab.store.http;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Reader statements the {@link dev.caplab.store.sql.StatementPolicy} already allowed, with the canonical text that ran: a dashboard
 * or a notebook sends the same few statements again and again, and judging one costs the engine two statements of its
 * own (its canonical text, then its {@code EXPLAIN AST}) on top of the query.
 *
 * <p>A verdict is a pure function of everything in the {@link Key}: the statement, its query parameters (an
 * {@code Identifier} parameter can name a table), the settings and database it is parsed under, and the databases the
 * reader may read. A statement the policy refused is not kept: it is judged again, and refused again, each time.
 * Not thread-safe: {@link EngineSessions} calls it under the readers' connection lock.
 */
final class AllowedStatements {

    /** Statements longer than this are judged every time: kept ones stay small. */
    static final int MAX_STATEMENT_CHARS = 16 * 1024;
    static final int CAPACITY = 256;

    /** Everything a verdict depends on. */
    record Key(String statement, Map<String, String> params, Map<String, String> settings, String database,
               Set<String> readableDatabases) {

        Key {
            params = Map.copyOf(params);
            settings = Map.copyOf(settings);
            readableDatabases = Set.copyOf(readableDatabases);
        }
    }

    private final Map<Key, String> canonical = new LinkedHashMap<>(CAPACITY * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, String> eldest) {
            return size() > CAPACITY;
        }
    };

    /** The canonical text of an allowed statement, or null when it has to be judged. */
    String canonicalText(Key key) {
        return canonical.get(key);
    }

    void allowed(Key key, String canonicalText) {
        if (key.statement().length() <= MAX_STATEMENT_CHARS) {
            canonical.put(key, canonicalText);
        }
    }
}
