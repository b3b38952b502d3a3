package dev.caplab.store.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.caplab.store.testing.ClickHouseTestExtension;
import dev.caplab.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The readers' pool on the embedded engine: its statements never write, and they do not queue behind a long
 * statement of the read-write pool (the sink's inserts), because they run on a connection of their own; and no
 * statement waits on TCP's delayed acknowledgement.
 */
@ExtendWith(ClickHouseTestExtension.class)
class ReadOnlyPoolIT {

    /** Six rows, one per block, a second each: a statement that holds its connection for about six seconds. */
    private static final String SLOW = "SELECT sum(sleepEachRow(1)) FROM numbers(6) SETTINGS max_block_size = 1";

    private final TestDatabase db;

    ReadOnlyPoolIT(TestDatabase db) {
        this.db = db;
    }

    @Test
    void aReadDoesNotWaitForTheReadWritePoolsLongStatement() throws Exception {
        try (HikariDataSource readers = StoreDataSources.createReadOnly(db.jdbcUrl(), db.pool().getUsername(), db.pool().getPassword())) {
            List<Long> readsDoneMillis = readsDuring(readers);
            // the slow statement surely runs from 2 s after it was sent until it ends (6 s of sleeping)
            assertThat(readsDoneMillis).as("reads answered while the read-write pool's statement ran")
                    .anySatisfy(t -> assertThat(t).isBetween(2_000L, 5_000L));
        }
        // control: through the read-write pool the same reads wait for the slow statement to end
        List<Long> queued = readsDuring(db.dataSource());
        assertThat(queued).as("reads on the read-write connection queue behind it")
                .noneSatisfy(t -> assertThat(t).isBetween(2_000L, 5_000L));
    }

    @Test
    void aReadDoesNotWaitForTheClientsDelayedAck() throws Exception {
        // With Nagle's algorithm on the embedded server's sockets, the last part of a response waited for the ACK
        // of what went before, which the JDBC client delays by 40 ms (Linux's minimum): a read of a few thousand
        // rows took over 40 ms however little the engine did.
        String page = "SELECT number, toString(number) FROM numbers(3000)";
        run(db.dataSource(), page);
        long[] micros = new long[21];
        for (int i = 0; i < micros.length; i++) {
            long start = System.nanoTime();
            run(db.dataSource(), page);
            micros[i] = (System.nanoTime() - start) / 1_000;
        }
        java.util.Arrays.sort(micros);
        assertThat(micros[micros.length / 2]).as("median round trip of a 3,000-row read over JDBC, µs")
                .isLessThan(35_000);
    }

    @Test
    void theReadersPoolCannotWrite() {
        try (HikariDataSource readers = StoreDataSources.createReadOnly(db.jdbcUrl(), db.pool().getUsername(), db.pool().getPassword())) {
            assertThatThrownBy(() -> run(readers, "CREATE TABLE read_only_probe (x UInt8) ENGINE = Memory"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("readonly");
            assertThatThrownBy(() -> run(readers, "INSERT INTO runs (run_id) VALUES ('read-only-probe')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("readonly");
        }
    }

    /** Starts the slow statement on the read-write pool, reads through {@code pool} until it ends: each read's end. */
    private List<Long> readsDuring(DataSource pool) throws Exception {
        long start = System.nanoTime();
        CompletableFuture<Void> slow = CompletableFuture.runAsync(() -> {
            try {
                run(db.dataSource(), SLOW);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        List<Long> doneMillis = new ArrayList<>();
        while (!slow.isDone()) {
            run(pool, "SELECT count() FROM runs");
            doneMillis.add((System.nanoTime() - start) / 1_000_000);
        }
        slow.get();
        return doneMillis;
    }

    private static void run(DataSource pool, String sql) throws SQLException {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                rs.getObject(1);
            }
        }
    }
}
