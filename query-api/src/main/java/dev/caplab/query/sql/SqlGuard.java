package dev.caplab.query.sql;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * Lets through exactly one SELECT over caplab's own tables calling only pure functions, or nothing. The text is split
 * in Java first ({@link StatementSplitter}), so no second statement ever reaches the engine; only that one statement
 * goes to ClickHouse as {@code EXPLAIN AST} (a parse, which executes nothing), and its tree is judged with
 * allow-lists ({@link StatementRules}, {@link PureFunctions}). {@code readonly=1} still guards writes beneath.
 */
@Component
class SqlGuard {

    private static final String FUNCTIONS = "SELECT name, is_aggregate, case_insensitive, alias_to, origin, categories"
            + " FROM system.functions";
    private static final String COMBINATORS = "SELECT name FROM system.aggregate_function_combinators";
    private static final String DATABASES = "SELECT name FROM system.databases";

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
        new StatementRules(database, databases, functions()).check(AstNode.parse(ast));
        return statement;
    }

    /** The engine's function catalogue, read once: it changes only with the engine's version. */
    private PureFunctions functions() {
        PureFunctions f = functions;
        if (f == null) {
            List<PureFunctions.Entry> entries = clickhouse.catalogue(FUNCTIONS).stream()
                    .map(r -> new PureFunctions.Entry(r.get(0), "1".equals(r.get(1)), "1".equals(r.get(2)), r.get(3),
                            r.get(4), r.get(5)))
                    .toList();
            Set<String> combinators = new HashSet<>();
            clickhouse.catalogue(COMBINATORS).forEach(row -> combinators.add(row.getFirst()));
            f = new PureFunctions(entries, combinators);
            functions = f;
        }
        return f;
    }
}
