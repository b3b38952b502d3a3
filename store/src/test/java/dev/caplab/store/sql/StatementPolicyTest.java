package dev.caplab.store.sql;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The one statement policy of every SQL door, over syntax trees printed by chDB 26.5's {@code EXPLAIN AST} for each
 * statement (copied from the engine, trimmed only where noted), judged for readers of database {@code caplab} and
 * {@code information_schema}, and of the single table {@code system.functions}.
 */
class StatementPolicyTest {

    private static final StatementPolicy POLICY = new StatementPolicy(Set.of("caplab", "information_schema"),
            Set.of("system.functions"), PureFunctionsTest.FUNCTIONS);
    private static final Set<String> DATABASES = Set.of("caplab", "default", "system", "information_schema",
            "INFORMATION_SCHEMA", "other");

    private static void allowed(String dump) {
        allowed("SELECT", dump);
    }

    private static void allowed(String statement, String dump) {
        assertThatCode(() -> POLICY.check(statement, dump.lines().toList(), DATABASES)).doesNotThrowAnyException();
    }

    private static void refused(String dump, String why) {
        refused("SELECT", dump, why);
    }

    private static void refused(String statement, String dump, String why) {
        assertThatThrownBy(() -> POLICY.check(statement, dump.lines().toList(), DATABASES)).as(statement)
                .isInstanceOf(StatementRefusedException.class).hasMessageContaining(why);
    }

    @Test
    void allowsASelectOverCaplabTables() {
        // SELECT run_id, count() AS n FROM runs FINAL WHERE provider = 'x' GROUP BY run_id ORDER BY n DESC LIMIT 5
        allowed("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 6)
                   ExpressionList (children 2)
                    Identifier run_id
                    Function count (alias n) (children 1)
                     ExpressionList
                   TablesInSelectQuery (children 1)
                    TablesInSelectQueryElement (children 1)
                     TableExpression (children 1)
                      TableIdentifier runs
                   Function equals (children 1)
                    ExpressionList (children 2)
                     Identifier provider
                     Literal 'x'
                   ExpressionList (children 1)
                    Identifier run_id
                   ExpressionList (children 1)
                    OrderByElement (children 1)
                     Identifier n
                   Literal UInt64_5
                """);
        // SELECT * FROM caplab.runs AS r WHERE r.run_id = 'a (alias b)'
        allowed("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 3)
                   ExpressionList (children 1)
                    Asterisk
                   TablesInSelectQuery (children 1)
                    TablesInSelectQueryElement (children 1)
                     TableExpression (children 1)
                      TableIdentifier caplab.runs (alias r)
                   Function equals (children 1)
                    ExpressionList (children 2)
                     Identifier r.run_id
                     Literal 'a (alias b)'
                """);
    }

    @Test
    void refusesIntoOutfileFormatAndSettings() {
        // SELECT 1 INTO OUTFILE '/tmp/wt-sql-x' TRUNCATE
        refused("""
                SelectWithUnionQuery (children 2)
                 ExpressionList (children 1)
                  SelectQuery (children 1)
                   ExpressionList (children 1)
                    Literal UInt64_1
                 Literal '/tmp/wt-sql-x'
                """, "INTO OUTFILE, FORMAT and SETTINGS clauses are not allowed");
        // SELECT 1 FROM runs SETTINGS max_execution_time=0
        refused("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 3)
                   ExpressionList (children 1)
                    Literal UInt64_1
                   TablesInSelectQuery (children 1)
                    TablesInSelectQueryElement (children 1)
                     TableExpression (children 1)
                      TableIdentifier runs
                   Set
                """, "SETTINGS clauses are not allowed");
    }

    @Test
    void refusesFunctionsAndTableFunctionsThatReachOutside() {
        // SELECT file('/etc/hostname')
        refused("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 1)
                   ExpressionList (children 1)
                    Function file (children 1)
                     ExpressionList (children 1)
                      Literal '/etc/hostname'
                """, "function file is not allowed");
        // SELECT * FROM url('http://127.0.0.1:1/x', 'CSV', 'a String')
        refused("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 2)
                   ExpressionList (children 1)
                    Asterisk
                   TablesInSelectQuery (children 1)
                    TablesInSelectQueryElement (children 1)
                     TableExpression (children 1)
                      Function url (children 1)
                       ExpressionList (children 3)
                        Literal 'http://127.0.0.1:1/x'
                        Literal 'CSV'
                        Literal 'a String'
                """, "table function url is not allowed");
        // SELECT 1 WHERE 1 IN numbers_mt(10): a table function on the right of IN is no table expression
        refused("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 2)
                   ExpressionList (children 1)
                    Literal UInt64_1
                   Function in (children 1)
                    ExpressionList (children 2)
                     Literal UInt64_1
                     Function numbers_mt (children 1)
                      ExpressionList (children 1)
                       Literal UInt64_10
                """, "function numbers_mt is not allowed");
        // SELECT COLUMNS('a') APPLY(file) FROM runs: the dump does not name the applied function
        refused("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 2)
                   ExpressionList (children 1)
                    ColumnsRegexpMatcher (children 1)
                     ColumnsTransformerList (children 1)
                      ColumnsApplyTransformer
                   TablesInSelectQuery (children 1)
                    TablesInSelectQueryElement (children 1)
                     TableExpression (children 1)
                      TableIdentifier runs
                """, "ColumnsApplyTransformer");
    }

    @Test
    void refusesOtherDatabasesAnywhere() {
        // SELECT 1 WHERE 1 IN (SELECT 1 FROM system.one)
        refused("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 2)
                   ExpressionList (children 1)
                    Literal UInt64_1
                   Function in (children 1)
                    ExpressionList (children 2)
                     Literal UInt64_1
                     Subquery (children 1)
                      SelectWithUnionQuery (children 1)
                       ExpressionList (children 1)
                        SelectQuery (children 2)
                         ExpressionList (children 1)
                          Literal UInt64_1
                         TablesInSelectQuery (children 1)
                          TablesInSelectQueryElement (children 1)
                           TableExpression (children 1)
                            TableIdentifier system.one
                """, "table system.one is not readable here");
        // SELECT 1 WHERE 1 IN other.t (trimmed to the IN)
        refused("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 1)
                   Function in (children 1)
                    ExpressionList (children 2)
                     Literal UInt64_1
                     Identifier other.t
                """, "table other.t is not readable here");
    }

    @Test
    void refusesADumpItCannotReadExactly() {
        refused("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 2)
                  SelectQuery (children 1)
                   ExpressionList (children 1)
                    Literal UInt64_1
                """, "2 children declared, 1 found");
        refused("""
                SelectWithUnionQuery (children 1)
                  ExpressionList (children 1)
                """, "indent 1 expected");
        refused("", "no syntax tree");
    }

    @Test
    void refusesIntoOutfileAfterEveryStatementType() {
        // DESCRIBE TABLE (SELECT 1 AS `probe`) INTO OUTFILE '/tmp/caplab-probe' FORMAT TSVRaw
        refused("DESCRIBE TABLE (SELECT 1 AS probe) INTO OUTFILE '/tmp/caplab-probe' FORMAT TSVRaw", """
                DescribeQuery (children 3)
                 TableExpression (children 1)
                  Subquery (children 1)
                   SelectWithUnionQuery (children 1)
                    ExpressionList (children 1)
                     SelectQuery (children 1)
                      ExpressionList (children 1)
                       Literal UInt64_1 (alias probe)
                 Literal '/tmp/caplab-probe'
                 Identifier TSVRaw
                """, "DESCRIBE is allowed of one table or subquery, without INTO OUTFILE");
        refused("SHOW TABLES FROM caplab INTO OUTFILE '/tmp/caplab-probe'", """
                ShowTables (children 2)
                 Identifier caplab
                 Literal '/tmp/caplab-probe'
                """, "SHOW TABLES is allowed without INTO OUTFILE");
        refused("EXPLAIN SELECT 1 INTO OUTFILE '/tmp/x'", """
                Explain EXPLAIN (children 2)
                 SelectWithUnionQuery (children 1)
                  ExpressionList (children 1)
                   SelectQuery (children 1)
                    ExpressionList (children 1)
                     Literal UInt64_1
                 Literal '/tmp/x'
                """, "EXPLAIN is allowed of one SELECT only");
        // WITH 1 AS x SELECT x INTO OUTFILE '/tmp/x' APPEND
        refused("""
                SelectWithUnionQuery (children 2)
                 ExpressionList (children 1)
                  SelectQuery (children 2)
                   ExpressionList (children 1)
                    Literal UInt64_1 (alias x)
                   ExpressionList (children 1)
                    Identifier x
                 Literal '/tmp/x'
                """, "INTO OUTFILE");
        // SELECT 1 INTO OUTFILE 'x' COMPRESSION 'gzip'
        refused("""
                SelectWithUnionQuery (children 3)
                 ExpressionList (children 1)
                  SelectQuery (children 1)
                   ExpressionList (children 1)
                    Literal UInt64_1
                 Literal 'gzip'
                 Literal 'x'
                """, "INTO OUTFILE");
        refused("SHOW CREATE TABLE caplab.runs INTO OUTFILE 'x'", """
                ShowCreateTableQuery caplab runs (children 3)
                 Identifier caplab
                 Identifier runs
                 Literal 'x'
                """, "SHOW CREATE TABLE is allowed without INTO OUTFILE");
    }

    @Test
    void allowsDescribeShowAndExplainOfReadableThings() {
        allowed("DESCRIBE TABLE caplab.runs", """
                DescribeQuery (children 1)
                 TableExpression (children 1)
                  TableIdentifier caplab.runs
                """);
        allowed("SHOW TABLES FROM caplab LIKE '%r%'", """
                ShowTables (children 1)
                 Identifier caplab
                """);
        allowed("SHOW DATABASES", "ShowTables");
        allowed("SHOW CREATE TABLE caplab.runs", """
                ShowCreateTableQuery caplab runs (children 2)
                 Identifier caplab
                 Identifier runs
                """);
        allowed("EXPLAIN PIPELINE SELECT 1", """
                Explain EXPLAIN PIPELINE (children 1)
                 SelectWithUnionQuery (children 1)
                  ExpressionList (children 1)
                   SelectQuery (children 1)
                    ExpressionList (children 1)
                     Literal UInt64_1
                """);
        // SELECT name FROM system.functions: a single readable table of system
        allowed("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 2)
                   ExpressionList (children 1)
                    Identifier name
                   TablesInSelectQuery (children 1)
                    TablesInSelectQueryElement (children 1)
                     TableExpression (children 1)
                      TableIdentifier system.functions
                """);
    }

    @Test
    void refusesTheShowKindsTheDumpCannotTellApartAndOtherStatements() {
        for (String show : new String[] {"SHOW SETTINGS LIKE '%path%'", "SHOW CLUSTERS", "SHOW MERGES",
                "SHOW DICTIONARIES", "/* c */ SHOW TABLES"}) {
            refused(show, "ShowTables", "only SHOW TABLES, SHOW DATABASES and SHOW CREATE TABLE");
        }
        refused("SHOW TABLES FROM system", """
                ShowTables (children 1)
                 Identifier system
                """, "database system is not readable here");
        refused("SHOW CREATE TABLE system.disks", """
                ShowCreateTableQuery system disks (children 2)
                 Identifier system
                 Identifier disks
                """, "table system.disks is not readable here");
        refused("SHOW PROCESSLIST", "ShowProcesslistQuery", "this is ShowProcesslistQuery");
        refused("SHOW CREATE DATABASE caplab", """
                ShowCreateDatabaseQuery caplab  (children 1)
                 Identifier caplab
                """, "this is ShowCreateDatabaseQuery");
        refused("EXPLAIN PIPELINE header = 1 SELECT 1", """
                Explain EXPLAIN PIPELINE (children 2)
                 Set
                 SelectWithUnionQuery (children 1)
                  ExpressionList (children 1)
                   SelectQuery (children 1)
                    ExpressionList (children 1)
                     Literal UInt64_1
                """, "EXPLAIN is allowed of one SELECT only");
        refused("INSERT INTO t", """
                InsertQuery (children 1)
                 Identifier t
                """, "this is InsertQuery");
    }

    @Test
    void refusesSystemTablesAndHeavyTableFunctionsAnywhereInTheTree() {
        // SELECT * FROM system.disks
        refused("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 2)
                   ExpressionList (children 1)
                    Asterisk
                   TablesInSelectQuery (children 1)
                    TablesInSelectQueryElement (children 1)
                     TableExpression (children 1)
                      TableIdentifier system.disks
                """, "table system.disks is not readable here");
        // SELECT 1 WHERE 1 IN (SELECT number FROM numbers_mt(10))
        refused("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 2)
                   ExpressionList (children 1)
                    Literal UInt64_1
                   Function in (children 1)
                    ExpressionList (children 2)
                     Literal UInt64_1
                     Subquery (children 1)
                      SelectWithUnionQuery (children 1)
                       ExpressionList (children 1)
                        SelectQuery (children 2)
                         ExpressionList (children 1)
                          Identifier number
                         TablesInSelectQuery (children 1)
                          TablesInSelectQueryElement (children 1)
                           TableExpression (children 1)
                            Function numbers_mt (children 1)
                             ExpressionList (children 1)
                              Literal UInt64_10
                """, "table function numbers_mt is not allowed");
        // WITH t AS (SELECT * FROM zeros_mt(10)) SELECT * FROM t
        refused("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 3)
                   ExpressionList (children 1)
                    WithElement (children 1)
                     Subquery (children 1)
                      SelectWithUnionQuery (children 1)
                       ExpressionList (children 1)
                        SelectQuery (children 2)
                         ExpressionList (children 1)
                          Asterisk
                         TablesInSelectQuery (children 1)
                          TablesInSelectQueryElement (children 1)
                           TableExpression (children 1)
                            Function zeros_mt (children 1)
                             ExpressionList (children 1)
                              Literal UInt64_10
                   ExpressionList (children 1)
                    Asterisk
                   TablesInSelectQuery (children 1)
                    TablesInSelectQueryElement (children 1)
                     TableExpression (children 1)
                      TableIdentifier t
                """, "table function zeros_mt is not allowed");
        // SELECT hostName(), filesystemAvailable()
        refused("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 1)
                   ExpressionList (children 2)
                    Function hostName (children 1)
                     ExpressionList
                    Function filesystemAvailable (children 1)
                     ExpressionList
                """, "function hostName is not allowed");
        // SELECT 1 SETTINGS max_threads = 64
        refused("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 2)
                   ExpressionList (children 1)
                    Literal UInt64_1
                   Set
                """, "SETTINGS clauses are not allowed");
        // SELECT * FROM numbers(3): one thread, bounded by the time limit
        allowed("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 2)
                   ExpressionList (children 1)
                    Asterisk
                   TablesInSelectQuery (children 1)
                    TablesInSelectQueryElement (children 1)
                     TableExpression (children 1)
                      Function numbers (children 1)
                       ExpressionList (children 1)
                        Literal UInt64_3
                """);
    }
}
