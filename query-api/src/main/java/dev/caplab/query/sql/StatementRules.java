package dev.caplab.query.sql;

import java.util.Set;

/**
 * What the one statement may contain, judged on ClickHouse's own syntax tree with allow-lists: only the node types
 * of a plain SELECT (so a clause whose contents {@code EXPLAIN AST} does not print, such as {@code APPLY(f)} or a
 * named {@code WINDOW}, is refused rather than trusted), tables of caplab's database only, no table function, only
 * {@link PureFunctions pure functions}, and no SETTINGS, FORMAT or INTO OUTFILE anywhere.
 */
final class StatementRules {

    /** Every node type a SELECT over caplab's tables needs, each printing all it holds as children. */
    static final Set<String> ALLOWED_NODES = Set.of("SelectWithUnionQuery", "SelectIntersectExceptQuery",
            "SelectQuery", "ExpressionList", "Identifier", "Function", "Literal", "Asterisk", "QualifiedAsterisk",
            "ColumnsListMatcher", "ColumnsRegexpMatcher", "QualifiedColumnsListMatcher",
            "QualifiedColumnsRegexpMatcher", "ColumnsTransformerList", "ColumnsExceptTransformer",
            "ColumnsReplaceTransformer", "ColumnsReplaceTransformer::Replacement", "TablesInSelectQuery",
            "TablesInSelectQueryElement", "TableExpression", "TableIdentifier", "TableJoin", "ArrayJoin", "Subquery",
            "WithElement", "OrderByElement", "InterpolateElement", "WindowDefinition", "SampleRatio");

    /** Databases that exist on every ClickHouse, named even if the catalogue query did not list them. */
    static final Set<String> ALWAYS_FOREIGN = Set.of("system", "information_schema", "INFORMATION_SCHEMA", "default");

    private final String database;
    private final Set<String> databases;
    private final PureFunctions functions;

    /**
     * @param database  caplab's database, the only one the statement may read
     * @param databases every database the engine has, so that {@code x IN db.table} and {@code db.t.c} are seen
     * @param functions the function rule
     */
    StatementRules(String database, Set<String> databases, PureFunctions functions) {
        this.database = database;
        this.databases = databases;
        this.functions = functions;
    }

    /** @throws SqlRejectedException naming the first construct the rules refuse */
    void check(AstNode root) {
        if (!root.type().equals("SelectWithUnionQuery")) {
            throw new SqlRejectedException("only SELECT statements are allowed, this is " + root.type());
        }
        walk(root, null);
    }

    private void walk(AstNode node, AstNode parent) {
        switch (node.type()) {
            case "Set" -> throw new SqlRejectedException("SETTINGS clauses are not allowed; the limits are fixed by"
                    + " the server");
            case "SelectWithUnionQuery" -> {
                if (node.children().size() != 1) {
                    throw new SqlRejectedException("INTO OUTFILE, FORMAT and SETTINGS clauses are not allowed;"
                            + " choose the result with the format field, the limits are fixed by the server");
                }
            }
            case "TableIdentifier" -> requireOwnTable(node.name());
            case "Identifier" -> requireNoForeignQualifier(node.name());
            case "Function" -> {
                if (parent != null && parent.type().equals("TableExpression")) {
                    throw new SqlRejectedException("table function " + node.name() + " is not allowed; read"
                            + " caplab's tables");
                }
                functions.refusal(node.name()).ifPresent(why -> {
                    throw new SqlRejectedException("function " + node.name() + " is not allowed: " + why);
                });
            }
            default -> {
                if (!ALLOWED_NODES.contains(node.type())) {
                    throw new SqlRejectedException("the construct " + node.type() + " (line " + node.line()
                            + " of EXPLAIN AST) is not allowed in the SQL endpoint");
                }
            }
        }
        for (AstNode child : node.children()) {
            walk(child, node);
        }
    }

    private void requireOwnTable(String table) {
        int dot = table.indexOf('.');
        if (dot >= 0 && !table.substring(0, dot).equals(database)) {
            throw new SqlRejectedException("only tables of database " + database + " may be read, not " + table);
        }
    }

    /** {@code r.run_id} names a column of a FROM table; {@code system.one} (as in {@code x IN system.one}) a table. */
    private void requireNoForeignQualifier(String identifier) {
        int dot = identifier.indexOf('.');
        if (dot < 0) {
            return;
        }
        String first = identifier.substring(0, dot);
        if (!first.equals(database) && (databases.contains(first) || ALWAYS_FOREIGN.contains(first))) {
            throw new SqlRejectedException("only tables of database " + database + " may be read, not "
                    + identifier);
        }
    }
}
