package dev.caplab.store.http;

import dev.caplab.store.engine.ClickHouseException;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a reader may run and set, judged on EXPLAIN AST texts as chDB 26.5.3 prints them (copied from its output). */
class ReaderPolicyTest {

    private static final Set<String> DBS = Set.of("caplab", "system");

    private static void denied(String ast, String why) {
        assertThatThrownBy(() -> ReaderStatementPolicy.check(ast, DBS)).isInstanceOf(ClickHouseException.class)
                .hasMessageContaining(why).extracting(e -> ((ClickHouseException) e).code()).isEqualTo(497);
    }

    @Test
    void aSelectOverAllowedTablesAndNumbersPasses() {
        assertThatCode(() -> ReaderStatementPolicy.check("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 2)
                   ExpressionList (children 1)
                    Asterisk
                   TablesInSelectQuery (children 2)
                    TablesInSelectQueryElement (children 1)
                     TableExpression (children 1)
                      TableIdentifier caplab.samples (alias s)
                    TablesInSelectQueryElement (children 2)
                     TableExpression (children 1)
                      Function numbers (alias n) (children 1)
                       ExpressionList (children 1)
                        Literal UInt64_3
                     TableJoin
                """, DBS)).doesNotThrowAnyException();
    }

    @Test
    void intoOutfileSettingsTableFunctionsFileAndForeignDatabasesAreRefused() {
        denied("""
                SelectWithUnionQuery (children 2)
                 ExpressionList (children 1)
                  SelectQuery (children 1)
                   ExpressionList (children 1)
                    Literal UInt64_1
                 Literal 'x'
                """, "INTO OUTFILE");
        denied("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 2)
                   ExpressionList (children 1)
                    Literal UInt64_1
                   Set
                """, "SETTINGS");
        denied("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 2)
                   ExpressionList (children 1)
                    Asterisk
                   TablesInSelectQuery (children 1)
                    TablesInSelectQueryElement (children 1)
                     TableExpression (children 1)
                      Function url (alias u) (children 1)
                       ExpressionList (children 2)
                        Literal 'http://x'
                        Identifier CSV
                """, "table function url");
        denied("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 1)
                   ExpressionList (children 1)
                    Function file (children 1)
                     ExpressionList (children 1)
                      Literal '/etc/hostname'
                """, "function file");
        // probes a host path through chDB's default overlay without naming a table
        denied("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 1)
                   ExpressionList (children 1)
                    Function hasColumnInTable (children 1)
                     ExpressionList (children 3)
                      Literal 'default'
                      Literal '/etc/hostname'
                      Literal 'c1'
                """, "function hasColumnInTable");
        denied("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 1)
                   ExpressionList (children 1)
                    Function dictGetString (children 1)
                     ExpressionList (children 3)
                      Literal 'd'
                      Literal 'a'
                      Literal UInt64_1
                """, "function dictGetString");
        denied("""
                SelectWithUnionQuery (children 1)
                 ExpressionList (children 1)
                  SelectQuery (children 2)
                   ExpressionList (children 1)
                    Literal UInt64_1
                   Function in (children 1)
                    ExpressionList (children 2)
                     Literal 'x'
                     Identifier default./etc/hostname
                """, "database default");
        denied("""
                ShowCreateTableQuery default plain (children 2)
                 Identifier default
                 Identifier plain
                """, "database default");
        denied("""
                InsertQuery (children 1)
                 Identifier t
                """, "not InsertQuery");
        denied("""
                Explain EXPLAIN AST (children 1)
                 InsertQuery (children 1)
                  Identifier t
                """, "not InsertQuery");
    }

    @Test
    void limitsAreCappedAndPinnedWhateverTheReaderAsks() {
        ReaderLimits limits = ReaderLimits.defaults("caplab");
        assertThat(ReaderSettings.effective(Map.of("max_execution_time", "0", "max_result_bytes", "5",
                "output_format_json_quote_64bit_integers", "1"), limits)).containsEntry("max_execution_time", "30")
                .containsEntry("max_result_bytes", "5").containsEntry("max_memory_usage", Long.toString(2L << 30))
                .containsEntry("result_overflow_mode", "throw").containsEntry("timeout_overflow_mode", "throw")
                .containsEntry("output_format_json_quote_64bit_integers", "1");
        assertThat(ReaderSettings.effective(Map.of("max_execution_time", "99999"), limits))
                .containsEntry("max_execution_time", "30");
        for (Map<String, String> loosening : java.util.List.of(Map.of("timeout_overflow_mode", "break"),
                Map.of("allow_introspection_functions", "1"), Map.of("output_format_schema", "/tmp/x"),
                Map.of("readonly", "0"))) {
            assertThatThrownBy(() -> ReaderSettings.effective(loosening, limits)).as("%s", loosening)
                    .isInstanceOf(ClickHouseException.class).hasMessageContaining("Cannot modify");
        }
    }
}
