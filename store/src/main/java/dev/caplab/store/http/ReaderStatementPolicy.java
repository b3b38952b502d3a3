package dev.caplab.store.http;

import dev.caplab.store.engine.ClickHouseException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Whether a reader's statement may run, judged on the engine's own parse of it ({@code EXPLAIN AST} output): one
 * SELECT, EXPLAIN, DESCRIBE or SHOW; no {@code INTO OUTFILE}, no {@code SETTINGS} clause (settings come from the
 * URL, where they are capped); tables only from the allowed databases; table functions only those that generate
 * data in memory; none of the functions that read host files. chDB runs as the JVM's user, so anything reading a
 * path (file(), the {@code default} database's overlay, joinGet on it, catboost models) would read the host.
 */
final class ReaderStatementPolicy {

    static final int ACCESS_DENIED = 497;

    private static final Set<String> ROOTS = Set.of("SelectWithUnionQuery", "Explain", "DescribeQuery", "ShowTables",
            "ShowCreateTableQuery");
    private static final Set<String> EXPLAINABLE = Set.of("SelectWithUnionQuery", "Explain", "DescribeQuery",
            "ShowTables");
    // Table functions that only generate data in memory.
    private static final Set<String> PURE_TABLE_FUNCTIONS = Set.of("numbers", "numbers_mt", "zeros", "zeros_mt",
            "generate_series", "generateseries", "generaterandom", "values", "null");
    // Scalar functions that read host files or tables named inside a string, or probe other servers, out of reach
    // of the table checks. A deny-list: the SQL endpoint (query-api) allow-lists pure functions instead.
    private static final Set<String> DENIED_FUNCTIONS = Set.of("file", "catboostevaluate", "joinget",
            "joingetornull", "naivebayesclassifier", "hascolumnintable", "hasthreadfuzzer",
            "getserversetting", "getmacro");
    // dictGet*, dictHas, dictIsIn…: every dictionary function reads a dictionary's source
    private static final String DICTIONARY_FUNCTION_PREFIX = "dict";
    private static final Set<String> IN_FUNCTIONS = Set.of("in", "notin", "globalin", "globalnotin", "nullin",
            "notnullin", "globalnullin", "globalnotnullin");

    private ReaderStatementPolicy() {
    }

    /** Refuses (code 497, ACCESS_DENIED) the statement whose {@code EXPLAIN AST} output is {@code ast}. */
    static void check(String ast, Set<String> databases) {
        List<Node> nodes = parse(ast);
        if (nodes.isEmpty() || nodes.getFirst().depth() != 0) {
            throw denied("the statement could not be judged");
        }
        Node root = nodes.getFirst();
        if (!ROOTS.contains(root.type()) || nodes.stream().filter(n -> n.depth() == 0).count() != 1) {
            throw denied("only one SELECT, EXPLAIN, DESCRIBE or SHOW statement is allowed, not " + root.type());
        }
        if (root.type().equals("ShowTables") || root.type().equals("ShowCreateTableQuery")) {
            List<Node> names = children(nodes, 0).stream().filter(n -> n.type().equals("Identifier")).toList();
            // SHOW TABLES FROM db, SHOW CREATE TABLE db.t: the database comes first when there is one.
            boolean named = root.type().equals("ShowTables") ? names.size() == 1 : names.size() == 2;
            if (named) {
                checkDatabase(names.getFirst().rest(), databases);
            }
        }
        for (int i = 0; i < nodes.size(); i++) {
            Node n = nodes.get(i);
            switch (n.type()) {
                case "Set" -> throw denied("a SETTINGS clause is not allowed; pass settings as URL parameters");
                case "Explain" -> children(nodes, i).forEach(c -> {
                    if (!EXPLAINABLE.contains(c.type())) {
                        throw denied("only a SELECT may be explained, not " + c.type());
                    }
                });
                case "SelectWithUnionQuery" -> {
                    if (children(nodes, i).stream().anyMatch(c -> c.type().equals("Literal"))) {
                        throw denied("INTO OUTFILE is not allowed");
                    }
                }
                case "TableIdentifier" -> checkTable(n.rest(), databases);
                case "Function" -> checkFunction(nodes, i, databases);
                default -> { }
            }
        }
    }

    private static void checkFunction(List<Node> nodes, int index, Set<String> databases) {
        Node n = nodes.get(index);
        String name = n.rest().toLowerCase(Locale.ROOT);
        Node parent = parent(nodes, index);
        if (parent != null && parent.type().equals("TableExpression")) {
            if (!PURE_TABLE_FUNCTIONS.contains(name)) {
                throw denied("table function " + n.rest() + " is not allowed (only numbers, zeros, values,"
                        + " generate_series, generateRandom)");
            }
            return;
        }
        if (DENIED_FUNCTIONS.contains(name) || name.startsWith(DICTIONARY_FUNCTION_PREFIX)) {
            throw denied("function " + n.rest() + " is not allowed");
        }
        if (IN_FUNCTIONS.contains(name)) {
            // x IN db.t reads a table: its right side is a table name when it is a bare identifier.
            List<Node> args = childIndices(nodes, index).stream()
                    .filter(c -> nodes.get(c).type().equals("ExpressionList")).findFirst()
                    .map(list -> children(nodes, list)).orElse(List.of());
            if (args.size() == 2 && args.get(1).type().equals("Identifier")) {
                checkTable(args.get(1).rest(), databases);
            }
        }
    }

    private static void checkTable(String qualifiedName, Set<String> databases) {
        int dot = qualifiedName.indexOf('.');
        // Unqualified names resolve in the request's database, which is one of the allowed ones.
        if (dot >= 0) {
            checkDatabase(qualifiedName.substring(0, dot), databases);
        }
    }

    private static void checkDatabase(String database, Set<String> databases) {
        if (!databases.contains(database)) {
            throw denied("database " + database + " is not readable here (readable: " + databases.stream().sorted()
                    .toList() + ")");
        }
    }

    private static ClickHouseException denied(String why) {
        return new ClickHouseException(ACCESS_DENIED, "Code: 497. DB::Exception: " + HttpSettings.READER_USER
                + ": Not enough privileges: " + why + ". (ACCESS_DENIED)");
    }

    /** One line of EXPLAIN AST: indentation depth, node type, and the rest (a name, maybe an alias and counts). */
    record Node(int depth, String type, String rest) {
    }

    static List<Node> parse(String ast) {
        List<Node> out = new ArrayList<>();
        for (String line : ast.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            int depth = 0;
            while (depth < line.length() && line.charAt(depth) == ' ') {
                depth++;
            }
            String text = line.substring(depth).replaceFirst(" \\(children \\d+\\)$", "")
                    .replaceFirst(" \\(alias [^)]*\\)$", "");
            int space = text.indexOf(' ');
            out.add(space < 0 ? new Node(depth, text, "") : new Node(depth, text.substring(0, space),
                    text.substring(space + 1)));
        }
        return out;
    }

    private static List<Node> children(List<Node> nodes, int index) {
        return childIndices(nodes, index).stream().map(nodes::get).toList();
    }

    private static List<Integer> childIndices(List<Node> nodes, int index) {
        int depth = nodes.get(index).depth();
        List<Integer> out = new ArrayList<>();
        for (int i = index + 1; i < nodes.size() && nodes.get(i).depth() > depth; i++) {
            if (nodes.get(i).depth() == depth + 1) {
                out.add(i);
            }
        }
        return out;
    }

    private static Node parent(List<Node> nodes, int index) {
        int depth = nodes.get(index).depth();
        for (int i = index - 1; i >= 0; i--) {
            if (nodes.get(i).depth() == depth - 1) {
                return nodes.get(i);
            }
        }
        return null;
    }
}
