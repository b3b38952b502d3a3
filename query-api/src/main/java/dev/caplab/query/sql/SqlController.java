package dev.caplab.query.sql;

import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import dev.caplab.query.QueryApiProperties;
import io.swagger.v3.oas.annotations.Operation;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code POST /api/v1/sql}: one guarded, limited, read-only statement, within a concurrency slot. */
@RestController
@RequiresScope(Scope.READ)
class SqlController {

    private final SqlGuard guard;
    private final ClickHouseHttp clickhouse;
    private final QuerySlots slots;
    private final String database;

    SqlController(SqlGuard guard, ClickHouseHttp clickhouse, QuerySlots slots, QueryApiProperties properties) {
        this.guard = guard;
        this.clickhouse = clickhouse;
        this.slots = slots;
        this.database = properties.database();
    }

    @Operation(summary = "Run one read-only SELECT over caplab's tables and pure functions (readonly; time, row,"
            + " result-byte and memory limits; 503 with Retry-After when max-concurrent-queries run);"
            + " results as JSON, CSV or Arrow stream")
    @PostMapping(path = "/api/v1/sql", consumes = "application/json")
    ResponseEntity<byte[]> json(@RequestBody SqlRequest request) {
        return run(request);
    }

    @Operation(summary = "The same with the SQL as the whole body and ?format=json|csv|arrow",
            description = "Takes text/plain and application/octet-stream, and curl's default "
                    + "application/x-www-form-urlencoded (`curl -d 'SELECT 1'`): caplab's request door reads no body "
                    + "as a form, so the statement arrives as written")
    @PostMapping(path = "/api/v1/sql", consumes = {"text/plain", "application/octet-stream"})
    ResponseEntity<byte[]> text(@RequestBody String sql, @RequestParam(name = "format", required = false) String format) {
        return run(new SqlRequest(sql, format, null));
    }

    private ResponseEntity<byte[]> run(SqlRequest request) {
        SqlFormat format = SqlFormat.parse(request.format());
        // the guard's EXPLAIN is engine work too, so it runs inside the slot
        try (QuerySlots.Slot _ = slots.acquire()) {
            String statement = guard.check(request.sql(), database, request.params());
            byte[] body = clickhouse.query(statement, format.clickhouseFormat, request.params());
            return ResponseEntity.ok().contentType(format.mediaType).body(body);
        }
    }
}
