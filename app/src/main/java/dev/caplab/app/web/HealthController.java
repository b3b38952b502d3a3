package dev.caplab.app.web;

import dev.caplab.access.PublicEndpoint;
import dev.caplab.schema.health.RoleStatus;
import dev.caplab.store.access.StoreHealth;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import javax.sql.DataSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/health}: each part of the pipeline — ClickHouse, the broker, the streams app (its state), the
 * sink (last insert, lag) — with {@code UP}/{@code DOWN} and a detail; 503 naming the failing parts when any is down,
 * so a stopped pipeline is never reported healthy. Used by compose and the CI scripts.
 */
@RestController
class HealthController {

    /**
     * How long one check answers for: the endpoint is public and a check costs a ClickHouse query and up to five
     * Kafka admin requests, so a flood of callers shares one check a second instead of multiplying them.
     */
    static final Duration FRESH_FOR = Duration.ofSeconds(1);

    private final StoreHealth store;
    private final HealthParts parts;
    private final LongSupplier nanoTime;
    private long checkedAtNanos;
    private ResponseEntity<Map<String, Object>> last;

    @Autowired
    HealthController(DataSource dataSource, HealthParts parts) {
        this(dataSource, parts, System::nanoTime);
    }

    HealthController(DataSource dataSource, HealthParts parts, LongSupplier nanoTime) {
        this.store = new StoreHealth(dataSource);
        this.parts = parts;
        this.nanoTime = nanoTime;
    }

    @GetMapping("/api/v1/health")
    @PublicEndpoint("liveness probe for compose and scripts: the state of each part, no run data")
    synchronized ResponseEntity<Map<String, Object>> health() {
        long now = nanoTime.getAsLong();
        if (last == null || now - checkedAtNanos >= FRESH_FOR.toNanos()) {
            last = check();
            checkedAtNanos = now;
        }
        return last;
    }

    private ResponseEntity<Map<String, Object>> check() {
        List<RoleStatus> all = new ArrayList<>();
        all.add(store.check());
        all.addAll(parts.check());
        Map<String, Object> body = new LinkedHashMap<>();
        List<String> down = all.stream().filter(p -> !p.up()).map(RoleStatus::role).toList();
        body.put("status", down.isEmpty() ? "UP" : "DOWN");
        if (!down.isEmpty()) {
            body.put("down", down);
        }
        for (RoleStatus p : all) {
            body.put(p.role(), Map.of("status", p.up() ? "UP" : "DOWN", "detail", p.detail()));
        }
        return ResponseEntity.status(down.isEmpty() ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).body(body);
    }
}
