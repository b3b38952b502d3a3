package dev.caplab.app.web;

import dev.caplab.access.PublicEndpoint;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/health}: UP when the HTTP tier can query ClickHouse; used by compose and the CI scripts. */
@RestController
class HealthController {

    private final DataSource dataSource;

    HealthController(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @GetMapping("/api/v1/health")
    @PublicEndpoint("liveness probe for compose and scripts: says UP or DOWN, carries no data")
    ResponseEntity<Map<String, String>> health() {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT 1")) {
            rs.next();
            return ResponseEntity.ok(Map.of("status", "UP", "clickhouse", "UP"));
        } catch (SQLException e) {
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                    .body(Map.of("status", "DOWN", "clickhouse", String.valueOf(e.getMessage())));
        }
    }
}
