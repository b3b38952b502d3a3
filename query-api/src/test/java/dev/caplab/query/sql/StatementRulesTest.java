package dev.caplab.query.sql;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The allow-list walk over syntax trees printed by chDB 26.5's {@code EXPLAIN AST} for each statement (copied from
 * the engine by hand, trimmed only where noted), judged for database {@code caplab}.
 */
class StatementRulesTest {

    private static final StatementRules RULES = new StatementRules("caplab",
            Set.of("caplab", "default", "system", "information_schema", "INFORMATION_SCHEMA", "other"),
            PureFunctionsTest.FUNCTIONS);

    private static void allowed(String dump) {
        assertThatCode(() -> RULES.check(AstNode.parse(dump.lines().toList()))).doesNotThrowAnyException();
    }

    private static void refused(String dump, String why) {
        assertThatThrownBy(() -> RULES.check(AstNode.parse(dump.lines().toList())))
                .isInstanceOf(SqlRejectedException.class).hasMessageContaining(why);
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
                """, "only tables of database caplab may be read, not system.one");
        // SELECT 1 WHERE 1 IN other.t (trimmed to the IN)
        refused("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 1)
                   Function in (children 1)
                    ExpressionList (children 2)
                     Literal UInt64_1
                     Identifier other.t
                """, "not other.t");
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
}
