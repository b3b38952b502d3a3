package dev.caplab.store.http;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SetStatementsTest {

    @Test
    void namesOfEveryAssignmentInEverySetStatement() {
        assertThat(SetStatements.assignedNames("set max_threads = 2, max_result_rows=5; SELECT 1;\n SET a_b = 'x'"))
                .containsExactly("max_threads", "max_result_rows", "a_b");
    }

    @Test
    void quotedTextAndOtherStatementsAssignNothing() {
        assertThat(SetStatements.assignedNames("SELECT 'SET x = 1', a = b FROM t WHERE c = 1")).isEmpty();
        assertThat(SetStatements.assignedNames("SET s = 'a, fake = 1; SET y = 2'")).containsExactly("s");
        assertThat(SetStatements.assignedNames("SELECT 1 SETTINGS max_threads = 1")).isEmpty();
    }

    @Test
    void aLongQuotedLiteralIsScannedWithoutDeepRecursion() {
        String literal = "x".repeat(200_000) + "\\'" + "y".repeat(200_000);
        assertThat(SetStatements.assignedNames("SET comment = '" + literal + "', max_threads = 1"))
                .containsExactly("comment", "max_threads");
    }
}
