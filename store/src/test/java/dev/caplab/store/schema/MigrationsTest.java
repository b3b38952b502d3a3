package dev.caplab.store.schema;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MigrationsTest {

    @Test
    void theIndexListsEveryDdlFileInOrder() throws IOException {
        Path dir = Path.of("src/main/resources/db/clickhouse");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(Migrations.load()).extracting(Migration::name)
                    .containsExactlyElementsOf(files.map(p -> p.getFileName().toString())
                            .filter(n -> n.endsWith(".sql")).sorted().toList());
        }
        int count = Migrations.load().size();
        assertThat(Migrations.load()).extracting(Migration::version)
                .as("versions run 1, 2, … without gaps").containsExactlyElementsOf(IntStream.rangeClosed(1, count).boxed().toList());
    }

    @Test
    void statementsSplitAtLineEndingSemicolonsWithoutComments() {
        assertThat(Migrations.split("-- note; not code\nCREATE TABLE a (x Int8)\nENGINE = Memory;\n\nDROP TABLE b;\n"))
                .containsExactly("CREATE TABLE a (x Int8)\nENGINE = Memory", "DROP TABLE b");
        assertThatThrownBy(() -> Migrations.split("CREATE TABLE a (x Int8) ENGINE = Memory"))
                .isInstanceOf(MigrationException.class);
    }

    @Test
    void theDdlUsesNoChdbOnlyOrDatabaseQualifiedNames() {
        for (Migration m : Migrations.load()) {
            for (String sql : m.statements()) {
                assertThat(sql).as(m.name()).doesNotContainIgnoringCase("caplab.").doesNotContain("chdb");
            }
        }
    }

    @Test
    void databaseNamesAreWhitelisted() {
        assertThat(Identifiers.requireSafe("database", "caplab_test1")).isEqualTo("caplab_test1");
        assertThatThrownBy(() -> Identifiers.requireSafe("database", "x`; DROP"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
