package dev.caplab.app.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.health.RoleStatus;
import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.store.testing.TestDatabase;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;

/** Health names every part and answers 503 naming the part that stopped, on the real embedded ClickHouse. */
class HealthControllerIT {

    private static TestDatabase db;

    @BeforeAll
    static void database() {
        db = EmbeddedClickHouse.shared().freshDatabase("HealthControllerIT");
    }

    @AfterAll
    static void drop() {
        EmbeddedClickHouse.shared().drop(db);
    }

    @Test
    void upWhileEveryPartIsUpAnd503NamingThePartOnceOneStops() {
        AtomicReference<RoleStatus> streams = new AtomicReference<>(new RoleStatus("streams", true, "RUNNING"));
        AtomicInteger checks = new AtomicInteger();
        AtomicLong nanos = new AtomicLong();
        HealthController health = new HealthController(db.dataSource(), () -> {
            checks.incrementAndGet();
            return List.of(new RoleStatus("broker", true, "1 broker(s) reachable"), streams.get(),
                    new RoleStatus("sink", true, "last insert 2026-01-01T00:00:00Z, lag 0 records"));
        }, nanos::get);

        ResponseEntity<Map<String, Object>> up = health.health();
        assertThat(up.getStatusCode().value()).isEqualTo(200);
        assertThat(up.getBody()).containsEntry("status", "UP").containsKeys("clickhouse", "broker", "streams", "sink")
                .doesNotContainKey("down");

        streams.set(new RoleStatus("streams", false, "ERROR"));
        // within a second, callers share the last check: a public endpoint must not multiply broker requests
        nanos.addAndGet(HealthController.FRESH_FOR.toNanos() - 1);
        assertThat(health.health().getStatusCode().value()).isEqualTo(200);
        assertThat(checks).hasValue(1);

        nanos.addAndGet(1);
        ResponseEntity<Map<String, Object>> down = health.health();
        assertThat(checks).hasValue(2);
        assertThat(down.getStatusCode().value()).isEqualTo(503);
        assertThat(down.getBody()).containsEntry("status", "DOWN").containsEntry("down", List.of("streams"));
        assertThat(down.getBody().get("streams")).isEqualTo(Map.of("status", "DOWN", "detail", "ERROR"));
    }
}
