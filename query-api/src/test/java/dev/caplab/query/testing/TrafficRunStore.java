package dev.caplab.query.testing;

import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.store.testing.TestDatabase;
import javax.sql.DataSource;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A database of its own on the real embedded ClickHouse with the EP19 runs and the {@link TrafficRun} the production
 * topology derived, shared by the page and report ITs (written once per test JVM).
 */
@TestConfiguration(proxyBeanMethods = false)
public class TrafficRunStore {

    /** Every statement the API prepares on this database. */
    public static final StatementLog STATEMENTS = new StatementLog();

    private static TestDatabase database;

    public static synchronized TestDatabase database() {
        if (database == null) {
            database = EmbeddedClickHouse.shared().freshDatabase("query_traffic");
            Ep19Runs.write(database.dataSource());
            TrafficRun.write(database.dataSource());
        }
        return database;
    }

    /** Points the API at this database and the SQL endpoint at the engine's HTTP interface. */
    public static void properties(DynamicPropertyRegistry registry) {
        StoreTestSupport.properties(registry, TrafficRunStore::database);
    }

    @Bean
    DataSource dataSource() {
        return STATEMENTS.wrap(database().dataSource());
    }
}
