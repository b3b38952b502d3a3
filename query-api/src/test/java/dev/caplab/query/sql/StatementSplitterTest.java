package dev.caplab.query.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Attacks on the split into one statement: every second statement is refused before any text reaches the engine. */
class StatementSplitterTest {

    private static void refused(String sql, String why) {
        assertThatThrownBy(() -> StatementSplitter.single(sql)).as(sql)
                .isInstanceOf(SqlRejectedException.class).hasMessageContaining(why);
    }

    @Test
    void refusesASecondStatementWhateverItIs() {
        refused("SELECT 1; SELECT * FROM file('/etc/hostname','LineAsString')", "only one statement");
        refused("SELECT 1; SELECT * FROM system.users", "only one statement");
        refused("SELECT 1; SET max_execution_time=0", "only one statement");
        refused("SELECT 1;;", "only one statement");
        refused("SELECT 1 ; /* c */ SELECT 2", "only one statement");
    }

    @Test
    void refusesStatementsHiddenFromANaiveReading() {
        // ClickHouse ends '--', '//' and '# ' comments at LF only: each ';' here is live SQL
        refused("SELECT 1 // '\n; SELECT file('/etc/hostname') -- '", "only one statement");
        refused("SELECT 1 # '\n; SELECT file('/etc/hostname') -- '", "only one statement");
        // a $$ heredoc is a string to ClickHouse: "$$'$$; SELECT …" would split where a plain lexer sees a string
        refused("SELECT $$'$$; SELECT file('/etc/hostname') -- '", "not allowed outside a string");
        refused("SELECT 1 \\G SELECT 2", "not allowed outside a string");
        refused("SELECT 'a\\'; SELECT file('/etc/hostname')", "is not closed");
        refused("SELECT 1 /* ; SELECT 2", "is not closed");
    }

    @Test
    void refusesWhatIsNotASelectBeforeTheEngineSeesIt() {
        refused("SET max_execution_time=0", "only SELECT");
        refused("INSERT INTO runs VALUES (1)", "only SELECT");
        refused("EXPLAIN AST SELECT 1", "only SELECT");
        refused("`SELECT` 1", "only SELECT");
        refused("SELECT run_id FROM runs SETTINGS max_execution_time=0", "SETTINGS");
        refused("SELECT 1 FROM (SELECT 1 settings readonly=0)", "SETTINGS");
        refused("", "empty");
        refused(" -- only a comment\n", "empty");
        refused("SELECT 1 AS `a\nb`", "quoted name");
    }

    @Test
    void keepsSemicolonsInsideLiteralsNamesAndCommentsAndDropsATrailingOne() {
        assertThat(StatementSplitter.single("SELECT 'a;b'")).isEqualTo("SELECT 'a;b'");
        assertThat(StatementSplitter.single("SELECT 'it''s;', 'a\\';' AS \"x;y\"")).isEqualTo(
                "SELECT 'it''s;', 'a\\';' AS \"x;y\"");
        assertThat(StatementSplitter.single("SELECT 1 -- a; b\n")).isEqualTo("SELECT 1 -- a; b\n");
        // CR alone does not end a line comment for ClickHouse either: the ';' is commented out
        assertThat(StatementSplitter.single("SELECT 1 -- x\r; SELECT 2")).isEqualTo("SELECT 1 -- x\r; SELECT 2");
        // block comments nest for ClickHouse
        assertThat(StatementSplitter.single("/* x; /* y; */ z; */ SELECT 1")).isEqualTo(
                "/* x; /* y; */ z; */ SELECT 1");
        assertThat(StatementSplitter.single("SELECT 1; -- done\n  ")).isEqualTo("SELECT 1");
        assertThat(StatementSplitter.single("WITH 1 AS k SELECT k;")).isEqualTo("WITH 1 AS k SELECT k");
        assertThat(StatementSplitter.single("(SELECT 1) UNION ALL (SELECT 2)")).isEqualTo(
                "(SELECT 1) UNION ALL (SELECT 2)");
        assertThat(StatementSplitter.single("SELECT my_settings FROM t")).isEqualTo("SELECT my_settings FROM t");
    }
}
