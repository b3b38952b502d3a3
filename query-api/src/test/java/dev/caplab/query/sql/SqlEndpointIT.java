package dev.caplab.query.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.sun.net.httpserver.HttpServer;
import dev.caplab.query.testing.Ep19Runs;
import dev.caplab.query.testing.StoreTestSupport;
import dev.caplab.query.testing.Tokens;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
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

/**
 * The read-only SQL endpoint against the real embedded ClickHouse: formats, parameters, refusals and limits, and the
 * attacks of issue #12 (a second statement behind ';', file/url reads, INTO OUTFILE, SETTINGS, impure functions).
 */
@SpringBootTest(properties = {"caplab.query.sql.max-result-rows=20", "caplab.query.sql.max-execution-time=1s",
        "caplab.query.sql.max-memory-bytes=67108864", "caplab.query.sql.max-concurrent-queries=1"})
@AutoConfigureMockMvc
@Import(StoreTestSupport.class)
class SqlEndpointIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    MockMvc mvc;

    @Autowired
    QuerySlots slots;

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
                // (4 + 9 + 5 steps) × 3 resources, plus the AWS run's 9 steps × 4 derived throughput series
                .andExpect(content().string("\"n\"\n90\n"));
    }

    @Test
    void refusesWritesOtherDatabasesTableFunctionsAndSettings() throws Exception {
        String[][] refused = {
                {"INSERT INTO runs (run_id) VALUES ('x')", "only SELECT"},
                {"DROP TABLE runs", "only SELECT"},
                {"ALTER TABLE runs DELETE WHERE 1", "only SELECT"},
                {"SELECT 1; DROP TABLE runs", "only one statement"},
                {"SELECT * FROM system.tables", "is not readable here"},
                {"SELECT name FROM system.users", "is not readable here"},
                {"SELECT * FROM information_schema.tables", "is not readable here"},
                {"SELECT 1 WHERE 1 IN (SELECT 1 FROM system.one)", "is not readable here"},
                {"SELECT * FROM file('/etc/passwd', 'LineAsString')", "table function file is not allowed"},
                {"SELECT * FROM url('http://127.0.0.1:1/', 'CSV', 'a String')", "table function url is not allowed"},
                {"SELECT count() FROM numbers_mt(100000000)", "table function numbers_mt"},
                {"SELECT run_id FROM runs SETTINGS max_result_rows = 100000000", "SETTINGS clauses are not allowed"},
                {"SELECT run_id FROM runs FORMAT Native", "not allowed"},
                {"SELECT run_id FROM runs INTO OUTFILE '/tmp/caplab-leak.csv'", "not allowed"},
                {"SELECT getSetting('readonly')", "function getSetting is not allowed"},
                {"", "empty"},
        };
        for (String[] r : refused) {
            sql(r[0], "json", null).andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.type").value("https://caplab.dev/problems/sql-rejected"))
                    .andExpect(jsonPath("$.detail").value(containsString(r[1])));
        }
        // a table named by an Identifier-typed parameter is judged as the name it becomes, not as a placeholder
        for (String table : new String[] {"system.users", "default.`/etc/passwd`"}) {
            sql("SELECT * FROM {t:Identifier}", "json", java.util.Map.of("t", table))
                    .andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.type").value("https://caplab.dev/problems/sql-rejected"));
        }
        try (Connection c = StoreTestSupport.database().dataSource().getConnection();
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count() FROM runs FINAL")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(3);
        }
    }

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

    /** A file only this test knows, readable by the engine (same user), so a leak is recognised beyond doubt. */
    private static Path secretFile() throws IOException {
        Path f = Files.createTempFile("caplab-sql-it-", ".txt");
        Files.writeString(f, "secret-" + UUID.randomUUID() + "\n");
        f.toFile().deleteOnExit();
        return f;
    }

    private void refusedWithoutLeak(String sql, String why, String secret) throws Exception {
        String body = sql(sql, "json", null)
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.type").value("https://caplab.dev/problems/sql-rejected"))
                .andExpect(jsonPath("$.detail").value(containsString(why)))
                .andReturn().getResponse().getContentAsString();
        assertThat(body).as(sql).doesNotContain(secret);
    }

    @Test
    void aSecondStatementNeverRunsNotEvenDuringValidation() throws Exception {
        Path secret = secretFile();
        String marker = Files.readString(secret).strip();
        String read = "SELECT * FROM file('" + secret + "','LineAsString')";
        refusedWithoutLeak("SELECT 1; " + read, "only one statement", marker);
        // line comments end at LF only: the ';' is live SQL to ClickHouse however the quotes look
        refusedWithoutLeak("SELECT 1 // '\n; " + read + " -- '", "only one statement", marker);
        refusedWithoutLeak("SELECT 1 /* c */ ; /* d */ " + read, "only one statement", marker);
        refusedWithoutLeak("SELECT 1; SELECT name FROM system.users", "only one statement", "default");
        refusedWithoutLeak("SELECT 1; SET max_execution_time=0", "only one statement", marker);
        Path outfile = Files.createTempDirectory("caplab-sql-it-").resolve("leak.csv");
        refusedWithoutLeak("SELECT 1; SELECT run_id FROM runs INTO OUTFILE '" + outfile + "'", "only one statement",
                marker);
        refusedWithoutLeak("SELECT run_id FROM runs INTO OUTFILE '" + outfile + "'", "INTO OUTFILE", marker);
        assertThat(outfile).doesNotExist();
    }

    @Test
    void fileAndUrlAreRefusedInEveryForm() throws Exception {
        Path secret = secretFile();
        String marker = Files.readString(secret).strip();
        refusedWithoutLeak("SELECT file('" + secret + "')", "function file is not allowed", marker);
        // APPLY(f) is printed without f's name by EXPLAIN AST, so the old deny-list never saw this file() call
        refusedWithoutLeak("SELECT * APPLY(file) FROM (SELECT '" + secret + "' AS p)", "ColumnsApplyTransformer",
                marker);
        AtomicInteger requests = new AtomicInteger();
        HttpServer listener = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        listener.createContext("/", exchange -> {
            requests.incrementAndGet();
            byte[] answer = "x\n".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        listener.start();
        try {
            String url = "url('http://127.0.0.1:" + listener.getAddress().getPort() + "/probe', 'LineAsString')";
            refusedWithoutLeak("SELECT * FROM " + url, "table function url is not allowed", marker);
            refusedWithoutLeak("SELECT 1; SELECT * FROM " + url, "only one statement", marker);
            refusedWithoutLeak("SELECT 1 WHERE 1 IN (SELECT 1 FROM " + url + ")", "table function url", marker);
        } finally {
            listener.stop(0);
        }
        assertThat(requests).hasValue(0);
    }

    @Test
    void settingsAndServerRevealingFunctionsAreRefused() throws Exception {
        String[][] refused = {
                {"SELECT run_id FROM runs SETTINGS max_execution_time=0", "SETTINGS"},
                {"SELECT * FROM (SELECT run_id FROM runs SETTINGS max_execution_time=0)", "SETTINGS"},
                {"SELECT hostName()", "function hostName is not allowed"},
                {"SELECT tcpPort()", "function tcpPort is not allowed"},
                {"SELECT currentUser()", "function currentUser is not allowed"},
                {"SELECT filesystemAvailable()", "function filesystemAvailable is not allowed"},
                {"SELECT getServerSetting('tcp_port')", "function getServerSetting is not allowed"},
                {"SELECT dictGet('d', 'a', 1)", "function dictGet is not allowed"},
                {"SELECT count() OVER w FROM runs WINDOW w AS (ORDER BY hostName())", "WindowListElement"},
                {"SELECT 1 WHERE 1 IN system.one", "is not readable here"},
        };
        for (String[] r : refused) {
            refusedWithoutLeak(r[0], r[1], "secret-");
        }
    }

    @Test
    void ordinaryStatementsStillRun() throws Exception {
        sql("SELECT 'a;b' AS s", "json", null).andExpect(status().isOk())
                .andExpect(jsonPath("$.data[0].s").value("a;b"));
        sql("SELECT 1 AS one; -- trailing\n", "json", null).andExpect(status().isOk())
                .andExpect(jsonPath("$.data[0].one").value(1));
        sql("/* runs per provider */ SELECT provider, countIf(vcpu > 1) AS big, toStartOfHour(max(started_at)) AS h"
                + " FROM runs AS r FINAL GROUP BY r.provider ORDER BY provider", "json", null)
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.rows").value(2))
                .andExpect(jsonPath("$.data[0].provider").value("aws-lightsail"))
                .andExpect(jsonPath("$.data[1].big").value(1));
        // the notebook's raw-sample query (notebooks/run_curves.ipynb)
        sql("SELECT ts, value FROM samples WHERE run_id = {run:String} AND source = {source:String}"
                + " AND metric = {metric:String} AND ts > parseDateTime64BestEffort({start:String}, 6)"
                + " AND ts <= parseDateTime64BestEffort({end:String}, 6) ORDER BY ts", "json",
                java.util.Map.of("run", Ep19Runs.LIGHTNODE_1, "source", "sut", "metric", "cpu.cores",
                        "start", "2026-07-28T10:00:00Z", "end", "2026-07-28T11:00:00Z"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.meta[0].name").value("ts"));
    }

    @Test
    void memoryPerStatementIsLimited() throws Exception {
        // range(100M) of UInt32 needs ~400 MB against the 64 MiB configured above
        sql("SELECT length(range(100000000)) AS n", "json", null)
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.clickhouseCode").value(241));
    }

    @Test
    void statementsBeyondTheConcurrencyLimitAreTurnedAwayWithRetryAfter() throws Exception {
        // one slot (max-concurrent-queries=1): a sleeping statement holds it until the 1 s time limit ends it
        CompletableFuture<Integer> slow = CompletableFuture.supplyAsync(() -> {
            try {
                return sql("SELECT sleepEachRow(0.9), run_id FROM runs", "json", null).andReturn().getResponse()
                        .getStatus();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        while (slots.free() > 0 && !slow.isDone()) {
            Thread.sleep(5);
        }
        assertThat(slow).as("the sleeping statement is still running").isNotDone();
        sql("SELECT 1", "json", null)
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string(HttpHeaders.RETRY_AFTER, "1"))
                .andExpect(jsonPath("$.type").value("https://caplab.dev/problems/sql-busy"))
                .andExpect(jsonPath("$.detail").value(containsString("max-concurrent-queries")));
        assertThat(slow.get()).isEqualTo(422);
        sql("SELECT 1", "json", null).andExpect(status().isOk());
    }

    /**
     * A body without a type the JSON or text methods name (curl's default form type reaches controllers as
     * application/octet-stream, through the request door) is the statement; a content type no method takes is a
     * problem detail naming the ones it does, like every other failure of the API.
     */
    @Test
    void takesAnOpaqueBodyAsTheStatementAndAnswersUnknownTypesAsProblems() throws Exception {
        mvc.perform(post("/api/v1/sql").param("format", "csv").contentType(MediaType.APPLICATION_OCTET_STREAM)
                        .content("SELECT 1+1 AS two").header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isOk()).andExpect(content().string("\"two\"\n2\n"));
        mvc.perform(post("/api/v1/sql").contentType(MediaType.APPLICATION_XML).content("<sql>SELECT 1</sql>")
                        .header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isUnsupportedMediaType())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.type").value("https://caplab.dev/problems/unsupported-media-type"))
                .andExpect(jsonPath("$.detail").value(containsString("application/xml")))
                .andExpect(jsonPath("$.detail").value(containsString("text/plain")));
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
