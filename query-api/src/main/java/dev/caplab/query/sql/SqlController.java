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

@RestController
@RequiresScope(Scope.READ)
class SqlController {

    private final SqlGuard guard;
    private final ClickHouseHttp clickhouse;
    private final String database;

    SqlController(SqlGuard guard, ClickHouseHttp clickhouse, QueryApiProperties properties) {
        this.guard = guard;
        this.clickhouse = clickhouse;
        this.database = properties.database();
    }

    @Operation(summary = "Run one read-only SELECT over caplab's tables (readonly, time and row limits);"
            + " results as JSON, CSV or Arrow stream")
    @PostMapping(path = "/api/v1/sql", consumes = "application/json")
    ResponseEntity<byte[]> json(@RequestBody SqlRequest request) {
        return run(request);
    }

    @Operation(summary = "The same with the SQL as a text/plain body and ?format=json|csv|arrow")
    @PostMapping(path = "/api/v1/sql", consumes = "text/plain")
    ResponseEntity<byte[]> text(@RequestBody String sql, @RequestParam(name = "format", required = false) String format) {
        return run(new SqlRequest(sql, format, null));
    }

    private ResponseEntity<byte[]> run(SqlRequest request) {
        SqlFormat format = SqlFormat.parse(request.format());
        guard.check(request.sql(), database, request.params());
        byte[] body = clickhouse.query(request.sql(), format.clickhouseFormat, request.params());
        return ResponseEntity.ok().contentType(format.mediaType).body(body);
    }
}
