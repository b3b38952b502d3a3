package dev.caplab.query.sql;

import dev.caplab.store.sql.PureFunctions;
import dev.caplab.store.sql.StatementPolicy;
import dev.caplab.store.sql.StatementRefusedException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * Lets through exactly one statement the store's {@link StatementPolicy} allows over caplab's own tables, or nothing:
 * the same rule port 8123 applies to its readers. The text is split in Java first ({@link StatementSplitter}), so no
 * second statement ever reaches the engine; only that one statement goes to ClickHouse as {@code EXPLAIN AST} (a
 * parse, which executes nothing), and its tree is judged. {@code readonly=1} still guards writes beneath.
 */
@Component
class SqlGuard {

    private static final String DATABASES = "SHOW DATABASES";

    private final ClickHouseHttp clickhouse;
    private volatile PureFunctions functions;

    SqlGuard(ClickHouseHttp clickhouse) {
        this.clickhouse = clickhouse;
    }

    /**
     * The statement to run: {@code sql} without a trailing {@code ;}.
     *
     * @throws SqlRejectedException naming what is refused
     */
    String check(String sql, String database, Map<String, String> params) {
        String statement = StatementSplitter.single(sql);
        List<String> ast;
        try {
            ast = clickhouse.explainAst(statement, params);
        } catch (SqlFailedException e) {
            if (e.gatewayFailure() || e.busy()) {
                throw e; // about ClickHouse, not the statement: 502 or 503, never "cannot parse"
            }
            throw new SqlRejectedException("ClickHouse cannot parse the statement: " + e.getMessage());
        }
        Set<String> databases = new HashSet<>();
        clickhouse.catalogue(DATABASES).forEach(row -> databases.add(row.getFirst()));
        try {
            new StatementPolicy(Set.of(database), Set.of(), functions()).check(statement, ast, databases);
        } catch (StatementRefusedException e) {
            throw new SqlRejectedException(e.getMessage());
        }
        return statement;
    }

    /** The engine's function catalogue, read once: it changes only with the engine's version. */
    private PureFunctions functions() {
        PureFunctions f = functions;
        if (f == null) {
            f = PureFunctions.of(clickhouse.catalogue(PureFunctions.CATALOGUE),
                    clickhouse.catalogue(PureFunctions.COMBINATORS));
            functions = f;
        }
        return f;
    }
}
