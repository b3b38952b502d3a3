package dev.caplab.query.sql;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * Lets through only one SELECT over caplab's own tables, judged on ClickHouse's own parse ({@code EXPLAIN AST}) rather
 * than on text: no table functions (file, url, remote…), no other database (system, information_schema…), no
 * SETTINGS/FORMAT/INTO OUTFILE clause that could lift the limits. {@code readonly=1} still guards writes beneath.
 */
@Component
class SqlGuard {

    private static final Pattern LINE = Pattern.compile("^( *)(\\S+)(?: (\\S+))?.*$");
    private static final Set<String> ROOTS = Set.of("SelectWithUnionQuery", "SelectIntersectExceptQuery");
    /** Functions that reach outside the query's tables. */
    private static final Pattern OUTSIDE_FUNCTIONS = Pattern.compile(
            "(?i)(dictGet.*|dictHas|joinGet.*|getSetting.*|file|url|s3.*|remote.*|mysql|postgresql|hdfs.*|input"
                    + "|executable|jdbc|odbc|azureBlobStorage.*|currentProfiles|currentRoles|getServerSetting.*)");

    private final ClickHouseHttp clickhouse;

    SqlGuard(ClickHouseHttp clickhouse) {
        this.clickhouse = clickhouse;
    }

    void check(String sql, String database, Map<String, String> params) {
        if (sql == null || sql.isBlank()) {
            throw new SqlRejectedException("the SQL is empty");
        }
        String ast;
        try {
            ast = new String(clickhouse.query("EXPLAIN AST " + sql, "TabSeparatedRaw", params),
                    StandardCharsets.UTF_8);
        } catch (SqlFailedException e) {
            throw new SqlRejectedException("ClickHouse cannot parse the statement as a single query: "
                    + e.getMessage());
        }
        check(ast.lines().toList(), database);
    }

    static void check(List<String> ast, String database) {
        if (ast.isEmpty()) {
            throw new SqlRejectedException("ClickHouse returned no syntax tree for the statement");
        }
        Matcher root = LINE.matcher(ast.getFirst());
        if (!root.matches() || !ROOTS.contains(root.group(2))) {
            throw new SqlRejectedException("only SELECT statements are allowed, this is "
                    + (root.matches() ? root.group(2) : ast.getFirst()));
        }
        if (!ast.getFirst().contains("(children 1)")) {
            throw new SqlRejectedException("SETTINGS, FORMAT and INTO OUTFILE clauses are not allowed; choose the"
                    + " result with the format field, the limits are fixed by the server");
        }
        for (int i = 0; i < ast.size(); i++) {
            Matcher m = LINE.matcher(ast.get(i));
            if (!m.matches()) {
                continue;
            }
            String node = m.group(2);
            String name = m.group(3) == null ? "" : m.group(3);
            switch (node) {
                case "Set", "SetQuery" -> throw new SqlRejectedException("SETTINGS clauses are not allowed");
                case "TableIdentifier" -> requireOwnDatabase(name, database);
                case "Identifier" -> {
                    if (name.contains(".") && isForeignDatabase(name.substring(0, name.indexOf('.')), database)) {
                        throw new SqlRejectedException("only tables of database " + database + " may be read, not "
                                + name);
                    }
                }
                case "Function" -> {
                    if (OUTSIDE_FUNCTIONS.matcher(name).matches()) {
                        throw new SqlRejectedException("function " + name + " reaches outside caplab's tables");
                    }
                    if (i > 0 && LINE.matcher(ast.get(i - 1)).matches()
                            && ast.get(i - 1).strip().startsWith("TableExpression")) {
                        throw new SqlRejectedException("table function " + name + " is not allowed; read caplab's"
                                + " tables");
                    }
                }
                default -> { }
            }
        }
    }

    private static void requireOwnDatabase(String table, String database) {
        int dot = table.indexOf('.');
        if (dot >= 0 && !table.substring(0, dot).replace("`", "").equals(database)) {
            throw new SqlRejectedException("only tables of database " + database + " may be read, not " + table);
        }
    }

    private static boolean isForeignDatabase(String qualifier, String database) {
        String q = qualifier.replace("`", "");
        return !q.equals(database) && Set.of("system", "information_schema", "INFORMATION_SCHEMA", "default")
                .contains(q);
    }
}
