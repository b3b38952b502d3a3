package dev.caplab.store.sql;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one rule for SQL sent by someone outside caplab, on every door (port 8123's readers, {@code /api/v1/sql}):
 * judged on the engine's own parse of the statement ({@code EXPLAIN AST}, which runs nothing), with allow-lists only,
 * so that whatever this rule has not reviewed, or a future engine adds, is refused. The engine runs as caplab's user,
 * so whatever a statement makes it read or write is the host's.
 * <ul>
 *   <li>One statement: a SELECT, {@code EXPLAIN} of a SELECT, {@code DESCRIBE}, {@code SHOW TABLES},
 *       {@code SHOW DATABASES} or {@code SHOW CREATE TABLE}, each in exactly the shape the engine prints without
 *       {@code INTO OUTFILE}, {@code FORMAT}, {@code COMPRESSION} or {@code SETTINGS} (those print as extra children
 *       of the statement's node, so any extra child is refused).</li>
 *   <li>Only the node types of a plain query ({@link #ALLOWED_NODES}): a clause whose contents the dump does not
 *       print, such as {@code APPLY(f)} or a named {@code WINDOW}, is refused rather than trusted; no {@code Set}
 *       node ({@code SETTINGS}) anywhere.</li>
 *   <li>Tables only from the readable databases and the few readable tables (of {@code system}, whose other tables
 *       tell the host's disks, paths and other clients' queries), also when named as {@code x IN db.t}.</li>
 *   <li>Table functions only those that generate a bounded stream on one thread in memory
 *       ({@link #SAFE_TABLE_FUNCTIONS}), wherever they stand (FROM, JOIN, subquery, CTE, right side of IN).</li>
 *   <li>Functions only {@link PureFunctions pure ones}: nothing that reads a file, a dictionary, a setting, or tells
 *       the host's name, disks, kernel or uptime.</li>
 * </ul>
 * The limits (time, memory, threads, result size) are not this rule's: the door sets them where no statement can lift
 * them, which is why no {@code SETTINGS} clause passes here.
 */
public final class StatementPolicy {

    /** Every node type below a statement's root that a query needs, each printing all it holds as children. */
    static final Set<String> ALLOWED_NODES = Set.of("SelectWithUnionQuery", "SelectIntersectExceptQuery",
            "SelectQuery", "ExpressionList", "Identifier", "Function", "Literal", "Asterisk", "QualifiedAsterisk",
            "ColumnsListMatcher", "ColumnsRegexpMatcher", "QualifiedColumnsListMatcher",
            "QualifiedColumnsRegexpMatcher", "ColumnsTransformerList", "ColumnsExceptTransformer",
            "ColumnsReplaceTransformer", "ColumnsReplaceTransformer::Replacement", "TablesInSelectQuery",
            "TablesInSelectQueryElement", "TableExpression", "TableIdentifier", "TableJoin", "ArrayJoin", "Subquery",
            "WithElement", "OrderByElement", "InterpolateElement", "WindowDefinition", "SampleRatio");

    /**
     * Table functions that generate rows in memory from their arguments on one thread; what they cost is bounded by
     * the door's time and memory limits. Not {@code numbers_mt}/{@code zeros_mt} (every core),
     * {@code generateRandom}, nor anything that reads a file, a URL, another table or server.
     */
    public static final Set<String> SAFE_TABLE_FUNCTIONS = Set.of("numbers", "zeros", "generate_series",
            "generateseries", "values");

    /** Databases that exist on every ClickHouse, known as databases even when not listed as existing. */
    static final Set<String> ALWAYS_DATABASES = Set.of("system", "information_schema", "INFORMATION_SCHEMA",
            "default");

    // The formatter's own text of the SHOW statements whose node is ShowTables (the dump prints SHOW SETTINGS,
    // SHOW MERGES, SHOW CLUSTERS… as ShowTables too, with nothing to tell them apart).
    private static final Pattern SHOW_TABLES_OR_DATABASES = Pattern.compile(
            "(?i)\\s*SHOW\\s+(?:FULL\\s+)?(?:TEMPORARY\\s+)?(?:TABLES|DATABASES)\\b.*", Pattern.DOTALL);

    private final Set<String> readableDatabases;
    private final Set<String> readableTables;
    private final PureFunctions functions;

    /**
     * @param readableDatabases databases whose every table may be read; the statement's default database must be
     *                          one of them (the door sees to it), so that an unqualified name resolves in one
     * @param readableTables    single tables outside them that may be read, as {@code database.table}
     * @param functions         the function rule
     */
    public StatementPolicy(Set<String> readableDatabases, Set<String> readableTables, PureFunctions functions) {
        this.readableDatabases = Set.copyOf(readableDatabases);
        this.readableTables = Set.copyOf(readableTables);
        this.functions = Objects.requireNonNull(functions, "functions");
    }

    /**
     * Judges one statement.
     *
     * @param statement         its text (for the SHOW kinds the dump does not tell apart)
     * @param explainAst        the engine's {@code EXPLAIN AST} of it, one node a line, query parameters substituted
     * @param existingDatabases the engine's databases, so that {@code x IN db.t} is told from a column {@code r.c}
     * @throws StatementRefusedException naming the first thing refused
     */
    public void check(String statement, List<String> explainAst, Set<String> existingDatabases) {
        AstNode root = AstNode.parse(explainAst);
        new Walk(existingDatabases).root(statement, root);
    }

    /** One statement's judging, with the databases the engine has. */
    private final class Walk {
        private final Set<String> existingDatabases;

        Walk(Set<String> existingDatabases) {
            this.existingDatabases = existingDatabases;
        }

        void root(String statement, AstNode root) {
            List<AstNode> children = root.children();
            switch (root.type()) {
                case "SelectWithUnionQuery" -> walk(root, null);
                case "Explain" -> {
                    if (children.size() != 1 || !children.getFirst().type().equals("SelectWithUnionQuery")) {
                        throw refused("EXPLAIN is allowed of one SELECT only, without settings, INTO OUTFILE, FORMAT"
                                + " or SETTINGS clauses");
                    }
                    walk(children.getFirst(), root);
                }
                case "DescribeQuery" -> {
                    if (children.size() != 1 || !children.getFirst().type().equals("TableExpression")) {
                        throw refused("DESCRIBE is allowed of one table or subquery, without INTO OUTFILE, FORMAT or"
                                + " SETTINGS clauses");
                    }
                    walk(children.getFirst(), root);
                }
                case "ShowTables" -> {
                    if (!SHOW_TABLES_OR_DATABASES.matcher(statement).matches()) {
                        throw refused("of the SHOW statements only SHOW TABLES, SHOW DATABASES and SHOW CREATE TABLE"
                                + " are allowed");
                    }
                    if (children.size() > 1 || children.size() == 1 && !children.getFirst().type().equals("Identifier")) {
                        throw refused("SHOW TABLES is allowed without INTO OUTFILE, FORMAT or SETTINGS clauses");
                    }
                    if (children.size() == 1) {
                        requireReadableDatabase(children.getFirst().name());
                    }
                }
                case "ShowCreateTableQuery" -> {
                    if (children.isEmpty() || children.size() > 2
                            || children.stream().anyMatch(c -> !c.type().equals("Identifier"))) {
                        throw refused("SHOW CREATE TABLE is allowed without INTO OUTFILE, FORMAT or SETTINGS clauses");
                    }
                    if (children.size() == 2) {
                        requireReadableTable(children.get(0).name() + "." + children.get(1).name());
                    }
                }
                default -> throw refused("only one SELECT, EXPLAIN SELECT, DESCRIBE, SHOW TABLES, SHOW DATABASES or"
                        + " SHOW CREATE TABLE statement is allowed, this is " + root.type());
            }
        }

        private void walk(AstNode node, AstNode parent) {
            switch (node.type()) {
                case "Set" -> throw refused("SETTINGS clauses are not allowed; the limits are fixed by the server");
                case "SelectWithUnionQuery" -> {
                    if (node.children().size() != 1) {
                        throw refused("INTO OUTFILE, FORMAT and SETTINGS clauses are not allowed; the result's format"
                                + " is chosen by the request, the limits are fixed by the server");
                    }
                }
                case "TableIdentifier" -> requireReadableTable(node.name());
                case "Identifier" -> requireNoForeignQualifier(node.name());
                case "Function" -> {
                    if (parent != null && parent.type().equals("TableExpression")) {
                        requireSafeTableFunction(node.name());
                    } else {
                        functions.refusal(node.name()).ifPresent(why -> {
                            throw refused("function " + node.name() + " is not allowed: " + why);
                        });
                    }
                }
                default -> {
                    if (!ALLOWED_NODES.contains(node.type())) {
                        throw refused("the construct " + node.type() + " (line " + node.line() + " of EXPLAIN AST)"
                                + " is not allowed");
                    }
                }
            }
            for (AstNode child : node.children()) {
                walk(child, node);
            }
        }

        private void requireSafeTableFunction(String name) {
            if (!SAFE_TABLE_FUNCTIONS.contains(name.toLowerCase(Locale.ROOT))) {
                throw refused("table function " + name + " is not allowed (only " + SAFE_TABLE_FUNCTIONS.stream()
                        .sorted().toList() + ")");
            }
        }

        /** An unqualified name resolves in the statement's default database, which the door made a readable one. */
        private void requireReadableTable(String table) {
            int dot = table.indexOf('.');
            if (dot >= 0 && !readableDatabases.contains(table.substring(0, dot)) && !readableTables.contains(table)) {
                throw refused("table " + table + " is not readable here (readable: the tables of "
                        + sorted(readableDatabases) + (readableTables.isEmpty() ? "" : " and " + sorted(readableTables))
                        + ")");
            }
        }

        private void requireReadableDatabase(String database) {
            if (!readableDatabases.contains(database)) {
                throw refused("database " + database + " is not readable here (readable: " + sorted(readableDatabases)
                        + ")");
            }
        }

        /** {@code r.run_id} names a column of a FROM table; {@code system.one} (as in {@code x IN system.one}) a table. */
        private void requireNoForeignQualifier(String identifier) {
            int dot = identifier.indexOf('.');
            if (dot < 0) {
                return;
            }
            String first = identifier.substring(0, dot);
            if (existingDatabases.contains(first) || ALWAYS_DATABASES.contains(first)) {
                int second = identifier.indexOf('.', dot + 1);
                requireReadableTable(second < 0 ? identifier : identifier.substring(0, second));
            }
        }
    }

    private static List<String> sorted(Set<String> names) {
        return names.stream().sorted().toList();
    }

    private static StatementRefusedException refused(String why) {
        return new StatementRefusedException(why);
    }
}
