package dev.caplab.query.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.caplab.query.testing.StoreTestSupport;
import dev.caplab.query.testing.Tokens;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import tools.jackson.databind.json.JsonMapper;

/** The read-only SQL endpoint against the real embedded ClickHouse: formats, parameters, refusals and limits. */
@SpringBootTest(properties = {"caplab.query.sql.max-result-rows=20", "caplab.query.sql.max-execution-time=1s"})
@AutoConfigureMockMvc
@Import(StoreTestSupport.class)
class SqlEndpointIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    MockMvc mvc;

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        StoreTestSupport.properties(registry);
    }

    private ResultActions sql(String sql, String format, java.util.Map<String, String> params) throws Exception {
        String body = JSON.writeValueAsString(new SqlRequest(sql, format, params));
        return mvc.perform(post("/api/v1/sql").contentType(MediaType.APPLICATION_JSON).content(body)
                .header(HttpHeaders.AUTHORIZATION, Tokens.READ));
    }

    @Test
    void answersJsonCsvAndArrowWithBoundParameters() throws Exception {
        sql("SELECT run_id, vcpu FROM runs FINAL WHERE provider = {p:String} ORDER BY run_id", "json",
                java.util.Map.of("p", "lightnode"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.rows").value(2))
                .andExpect(jsonPath("$.data[0].run_id").value("ep19-lightnode-1vcpu"))
                .andExpect(jsonPath("$.meta[1].name").value("vcpu"));
        sql("SELECT run_id FROM runs FINAL WHERE provider = {p:String}", "json", java.util.Map.of("p", "' OR 1=1 --"))
                .andExpect(jsonPath("$.rows").value(0));
        sql("SELECT run_id, tier FROM runs FINAL ORDER BY run_id", "csv", null)
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith("text/csv"))
                .andExpect(content().string(containsString("\"run_id\",\"tier\"")))
                .andExpect(content().string(containsString("\"ep19-aws-lightsail-2vcpu\",\"2vcpu-2gb\"")));
        byte[] arrow = sql("SELECT run_id, vcpu FROM runs FINAL", "arrow", null)
                .andExpect(status().isOk())
                .andExpect(content().contentType("application/vnd.apache.arrow.stream"))
                .andReturn().getResponse().getContentAsByteArray();
        // Arrow IPC stream: each message opens with the 0xFFFFFFFF continuation marker
        assertThat(arrow).hasSizeGreaterThan(100).startsWith((byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF);
        mvc.perform(post("/api/v1/sql").param("format", "csv").contentType(MediaType.TEXT_PLAIN)
                        .content("SELECT count() AS n FROM step_aggregates FINAL")
                        .header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isOk())
                .andExpect(content().string("\"n\"\n54\n"));
    }

    @Test
    void refusesWritesOtherDatabasesTableFunctionsAndSettings() throws Exception {
        String[][] refused = {
                {"INSERT INTO runs (run_id) VALUES ('x')", "only SELECT"},
                {"DROP TABLE runs", "only SELECT"},
                {"ALTER TABLE runs DELETE WHERE 1", "only SELECT"},
                {"SELECT 1; DROP TABLE runs", "cannot parse"},
                {"SELECT * FROM system.tables", "only tables of database"},
                {"SELECT name FROM system.users", "only tables of database"},
                {"SELECT * FROM information_schema.tables", "only tables of database"},
                {"SELECT 1 WHERE 1 IN (SELECT 1 FROM system.one)", "only tables of database"},
                {"SELECT * FROM file('/etc/passwd', 'LineAsString')", "reaches outside"},
                {"SELECT * FROM url('http://127.0.0.1:1/', 'CSV', 'a String')", "reaches outside"},
                {"SELECT * FROM numbers(100000000)", "table function numbers"},
                {"SELECT run_id FROM runs SETTINGS max_result_rows = 100000000", "not allowed"},
                {"SELECT run_id FROM runs FORMAT Native", "not allowed"},
                {"SELECT run_id FROM runs INTO OUTFILE '/tmp/caplab-leak.csv'", "not allowed"},
                {"SELECT getSetting('readonly')", "reaches outside"},
                {"", "empty"},
        };
        for (String[] r : refused) {
            sql(r[0], "json", null).andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.type").value("https://caplab.dev/problems/sql-rejected"))
                    .andExpect(jsonPath("$.detail").value(containsString(r[1])));
        }
        try (Connection c = StoreTestSupport.database().dataSource().getConnection();
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count() FROM runs FINAL")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(3);
        }
    }

    // Passes alone; disabled because on the embedded engine the partial output of a query aborted by a limit leaks
    // into the next HTTP response (the next EXPLAIN AST comes back starting with '{'), corrupting later tests in this
    // JVM. Reported to the store owner; re-enable when the store's HTTP interface discards aborted output.
    @Test
    void rowAndTimeLimitsAreEnforcedByClickHouse() throws Exception {
        sql("SELECT sleepEachRow(0.9), run_id FROM runs", "json", null)
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.clickhouseCode").value(159));
        sql("SELECT * FROM step_aggregates", "json", null)
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.type").value("https://caplab.dev/problems/sql-limit"))
                .andExpect(jsonPath("$.clickhouseCode").value(396));
        sql("SELECT * FROM step_aggregates LIMIT 20", "json", null).andExpect(status().isOk())
                .andExpect(jsonPath("$.rows").value(20));
    }

    @Test
    void needsTheReadScope() throws Exception {
        mvc.perform(post("/api/v1/sql").contentType(MediaType.TEXT_PLAIN).content("SELECT 1"))
                .andExpect(status().isUnauthorized());
        mvc.perform(post("/api/v1/sql").contentType(MediaType.TEXT_PLAIN).content("SELECT 1")
                        .header(HttpHeaders.AUTHORIZATION, Tokens.WRITE_ONLY))
                .andExpect(status().isForbidden());
    }
}
