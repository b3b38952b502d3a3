package dev.caplab.query.testing;

import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.store.testing.TestDatabase;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;

/** One fresh, migrated database on the real embedded ClickHouse with the EP19 runs, shared by the query ITs. */
@TestConfiguration(proxyBeanMethods = false)
public class StoreTestSupport {

    private static TestDatabase database;

    public static synchronized TestDatabase database() {
        if (database == null) {
            database = EmbeddedClickHouse.shared().freshDatabase("query_api");
            Ep19Runs.write(database.dataSource());
        }
        return database;
    }

    /** Points the API at the test database and the SQL endpoint at the engine's HTTP interface. */
    public static void properties(DynamicPropertyRegistry registry) {
        properties(registry, StoreTestSupport::database);
    }

    /** The same for a test's own database, created when the API first asks for its name. */
    public static void properties(DynamicPropertyRegistry registry, Supplier<TestDatabase> database) {
        registry.add("caplab.query.database", () -> database.get().name());
        registry.add("caplab.query.sql.clickhouse-url", () -> EmbeddedClickHouse.shared().httpUrl());
        registry.add("caplab.query.sql.user", () -> EmbeddedClickHouse.shared().user());
        registry.add("caplab.query.sql.password", () -> EmbeddedClickHouse.shared().password());
    }

    @Bean
    DataSource dataSource() {
        return database().dataSource();
    }
}
