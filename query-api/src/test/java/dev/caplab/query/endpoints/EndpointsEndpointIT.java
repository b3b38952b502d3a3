package dev.caplab.query.endpoints;

import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.hasSize;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.caplab.query.testing.StoreTestSupport;
import dev.caplab.query.testing.Tokens;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.access.SampleRepository;
import dev.caplab.store.access.StepRepository;
import dev.caplab.store.row.RunRow;
import dev.caplab.store.row.SampleRow;
import dev.caplab.store.row.StepRow;
import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.store.testing.TestDatabase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * {@code /api/v1/runs/{id}/endpoints} over raw samples in the real embedded ClickHouse: two declared steps (10–30 s
 * and 30–50 s after T0, 5 s warm-up each, so steady parts of 15 s), with
 * <ul>
 *   <li>k6-like per-request samples: GET /a 200 once a second in step 0 (values 1..15 ms) plus two in its warm-up,
 *       twice a second in step 1 (values 10..39 ms); POST /b 503, failed, five times in step 1;</li>
 *   <li>Locust-CSV-like counters for GET /c: 3 requests and 1 failure a second from T0+10 to T0+49, beside an
 *       {@code Aggregated} total row that must never show; its {@code _stats.csv} totals (125 requests, 41 failures,
 *       3.1 req/s, p95 77 ms) and its window percentiles; and a {@code _failures.csv} row (40 occurrences);</li>
 *   <li>JMeter backend-listener windows for transaction /j (statut all, ok and ko: only all counts) and an error
 *       row for all transactions with its response code and message.</li>
 * </ul>
 * Every expected value is arithmetic on those inputs; percentiles of per-request samples follow ClickHouse's
 * documented {@code quantileExact}: the value at 0-based rank ⌊q·n⌋ of the sorted values.
 */
@SpringBootTest
@AutoConfigureMockMvc
@Import(EndpointsEndpointIT.OwnStore.class)
class EndpointsEndpointIT {

    private static final String RUN = "endpoints-it";
    private static final Instant T0 = Instant.parse("2026-09-01T10:00:00Z");

    @Autowired
    MockMvc mvc;

    /** A database of its own: the runs written here must not show in the other ITs' run lists. */
    private static TestDatabase database;

    static synchronized TestDatabase database() {
        if (database == null) {
            database = EmbeddedClickHouse.shared().freshDatabase("endpoints_it");
        }
        return database;
    }

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        StoreTestSupport.properties(registry, EndpointsEndpointIT::database);
    }

    /** Named apart from the other ITs' {@code dataSource} beans, which slice tests' scanning may also see. */
    @TestConfiguration(proxyBeanMethods = false)
    static class OwnStore {
        @Bean
        DataSource endpointsDataSource() {
            return database().dataSource();
        }
    }

    @BeforeAll
    static void write() {
        DataSource ds = database().dataSource();
        new RunRepository(ds).insertBatch(List.of(new RunRow(RUN, T0, "shop", "1", null, "local", "here", "t1",
                "t1", 2.0, 4L << 30, 1000.0, null, "k6", Map.of(), List.of(), List.of(), "users", "DECLARED",
                T0.plusSeconds(60), "COMPLETED", null, 1)), RUN + "-run");
        new StepRepository(ds).insertBatch(List.of(
                new StepRow(RUN, 0, Map.of("users", 10.0), T0.plusSeconds(10), 5_000_000L, T0.plusSeconds(30), 1),
                new StepRow(RUN, 1, Map.of("users", 20.0), T0.plusSeconds(30), 5_000_000L, T0.plusSeconds(50), 1)),
                RUN + "-steps");
        List<SampleRow> rows = new ArrayList<>();
        Map<String, String> a = Map.of("name", "/a", "method", "GET", "status", "200", "expected_response", "true");
        rows.add(gauge(T0.plusSeconds(10), a, 100));
        rows.add(gauge(T0.plusSeconds(11), a, 100));
        for (int i = 0; i < 15; i++) {
            rows.add(gauge(T0.plusSeconds(15 + i), a, 1 + i));
        }
        for (int i = 0; i < 30; i++) {
            rows.add(gauge(T0.plusMillis(35_000 + 500L * i), a, 10 + i));
        }
        Map<String, String> b = Map.of("name", "/b", "method", "POST", "status", "503", "expected_response", "false",
                "error", "request failed");
        for (int i = 0; i < 5; i++) {
            rows.add(gauge(T0.plusSeconds(40 + i), b, 50));
        }
        Map<String, String> c = Map.of("name", "/c", "method", "GET");
        Map<String, String> total = Map.of("name", "Aggregated");
        for (int t = 10; t < 50; t++) {
            rows.add(counter(T0.plusSeconds(t), "http.reqs.count", c, 3 * (t - 10)));
            rows.add(counter(T0.plusSeconds(t), "http.req.failed.count", c, t - 10));
            rows.add(counter(T0.plusSeconds(t), "http.reqs.count", total, 1000 * (t - 10)));
        }
        rows.add(window(T0.plusSeconds(12), c, 1000));
        rows.add(window(T0.plusSeconds(16), c, 10));
        rows.add(window(T0.plusSeconds(17), c, 30));
        rows.add(window(T0.plusSeconds(18), c, 20));
        Map<String, String> cumulative = Map.of("name", "/c", "method", "GET", "window", "cumulative");
        rows.add(counter(T0.plusSeconds(49), "http.reqs.count", cumulative, 125));
        rows.add(counter(T0.plusSeconds(49), "http.req.failed.count", cumulative, 41));
        rows.add(SampleRow.of(RUN, T0.plusSeconds(49), "locust", "http.reqs.per_s", "GAUGE", 3.1, cumulative));
        rows.add(new SampleRow(RUN, T0.plusSeconds(49), "locust", "http.req.duration.ms", "SUMMARY", 0, c,
                "CUMULATIVE", 125L, null, 9.0, 1.0, 99.0, Map.of("0.5", 8.0, "0.95", 77.0, "0.99", 90.0)));
        rows.add(counter(T0.plusSeconds(49), "http.req.errors.count", Map.of("name", "/c", "method", "GET",
                "error", "CatchResponseError('designed')"), 40));
        // JMeter's backend listener: transaction /j, statut all (its ok/ko parts must not add), three 10-request
        // windows in step 0's steady part with 1, 2 and 0 errors and p95 100, 300, 200 ms; an error row for all
        for (int w = 0; w < 3; w++) {
            Instant at = T0.plusSeconds(16 + 5L * w);
            for (String statut : List.of("all", "ok", "ko")) {
                Map<String, String> j = Map.of("application", "shop", "transaction", "/j", "statut", statut,
                        "aggregation", "jmeter-backend-listener", "name", "/j");
                rows.add(new SampleRow(RUN, at, "jmeter", "http.req.duration.ms", "SUMMARY", 0, j, "WINDOW", 10L,
                        null, 20.0, 1.0, 400.0, Map.of("0.95", new double[] {100, 300, 200}[w])));
                rows.add(SampleRow.of(RUN, at, "jmeter", "http.req.failed.window.count", "GAUGE",
                        new double[] {1, 2, 0}[w], j));
            }
        }
        rows.add(SampleRow.of(RUN, T0.plusSeconds(21), "jmeter", "http.req.failed.window.count", "GAUGE", 3,
                Map.of("application", "shop", "transaction", "all", "name", "all", "responseCode", "500",
                        "responseMessage", "Internal Server Error", "aggregation", "jmeter-backend-listener")));
        new SampleRepository(ds).insertBatch(rows, RUN + "-samples");
    }

    @Test
    void perStepAndPerRunEndpointsAndErrorsAreWhatTheToolsSent() throws Exception {
        double runSpanSeconds = 49.5 - 10;
        mvc.perform(get("/api/v1/runs/{id}/endpoints", RUN).header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.steps", hasSize(2)))
                // step 0, steady 15..30 s: /a 15 requests of 1..15 ms; /c's counter +45 over 15 s, from its last warm-up
                // report (14 s: a report counts what came since the one before) to its last (29 s)
                .andExpect(jsonPath("$.steps[0].endpoints", hasSize(3)))
                .andExpect(jsonPath("$.steps[0].endpoints[0].name").value("/a"))
                .andExpect(jsonPath("$.steps[0].endpoints[0].requests").value(15))
                .andExpect(jsonPath("$.steps[0].endpoints[0].requestsPerSecond").value(closeTo(15 / 15.0, 1e-9)))
                .andExpect(jsonPath("$.steps[0].endpoints[0].failures").value(0))
                .andExpect(jsonPath("$.steps[0].endpoints[0].p50Ms").value(8.0))
                .andExpect(jsonPath("$.steps[0].endpoints[0].p95Ms").value(15.0))
                .andExpect(jsonPath("$.steps[0].endpoints[1].name").value("/c"))
                .andExpect(jsonPath("$.steps[0].endpoints[1].requests").value(45))
                .andExpect(jsonPath("$.steps[0].endpoints[1].requestsPerSecond").value(closeTo(3.0, 1e-9)))
                .andExpect(jsonPath("$.steps[0].endpoints[1].failures").value(15))
                .andExpect(jsonPath("$.steps[0].endpoints[1].errorRatio").value(closeTo(15 / 45.0, 1e-9)))
                .andExpect(jsonPath("$.steps[0].endpoints[1].p95Ms").value(20.0))
                .andExpect(jsonPath("$.steps[0].endpoints[1].how").value(
                        "the tool's counter increase over the step; median of the tool's 3 window percentiles"))
                // JMeter /j: 3 windows of 10 requests over the 15 s steady part, 1 + 2 failed, p95 median 200 ms
                .andExpect(jsonPath("$.steps[0].endpoints[2].name").value("/j"))
                .andExpect(jsonPath("$.steps[0].endpoints[2].requests").value(30))
                .andExpect(jsonPath("$.steps[0].endpoints[2].requestsPerSecond").value(closeTo(30 / 15.0, 1e-9)))
                .andExpect(jsonPath("$.steps[0].endpoints[2].failures").value(3))
                .andExpect(jsonPath("$.steps[0].endpoints[2].p95Ms").value(200.0))
                .andExpect(jsonPath("$.steps[0].errors", hasSize(1)))
                .andExpect(jsonPath("$.steps[0].errors[0].name").value(""))
                .andExpect(jsonPath("$.steps[0].errors[0].status").value("500"))
                .andExpect(jsonPath("$.steps[0].errors[0].message").value("Internal Server Error"))
                .andExpect(jsonPath("$.steps[0].errors[0].occurrences").value(3))
                // step 1, steady 35..50 s: /a 30 requests of 10..39 ms; /b 5 failed requests, one error row
                .andExpect(jsonPath("$.steps[1].endpoints", hasSize(3)))
                .andExpect(jsonPath("$.steps[1].endpoints[0].requests").value(30))
                .andExpect(jsonPath("$.steps[1].endpoints[0].requestsPerSecond").value(closeTo(2.0, 1e-9)))
                .andExpect(jsonPath("$.steps[1].endpoints[0].p95Ms").value(38.0))
                .andExpect(jsonPath("$.steps[1].endpoints[1].name").value("/b"))
                .andExpect(jsonPath("$.steps[1].endpoints[1].status").value("503"))
                .andExpect(jsonPath("$.steps[1].endpoints[1].requests").value(5))
                .andExpect(jsonPath("$.steps[1].endpoints[1].requestsPerSecond").value(closeTo(5 / 15.0, 1e-9)))
                .andExpect(jsonPath("$.steps[1].endpoints[1].failures").value(5))
                .andExpect(jsonPath("$.steps[1].endpoints[1].errorRatio").value(1.0))
                .andExpect(jsonPath("$.steps[1].endpoints[2].requests").value(3 * 15))
                .andExpect(jsonPath("$.steps[1].errors", hasSize(1)))
                .andExpect(jsonPath("$.steps[1].errors[0].message").value("request failed"))
                .andExpect(jsonPath("$.steps[1].errors[0].status").value("503"))
                .andExpect(jsonPath("$.steps[1].errors[0].occurrences").value(5))
                // whole run: /a all 47 requests over 10..49.5 s; /c the tool's own totals, rate and percentiles
                .andExpect(jsonPath("$.endpoints", hasSize(4)))
                .andExpect(jsonPath("$.endpoints[0].requests").value(47))
                .andExpect(jsonPath("$.endpoints[0].requestsPerSecond").value(closeTo(47 / runSpanSeconds, 1e-9)))
                .andExpect(jsonPath("$.endpoints[0].p50Ms").value(sortedA()[47 / 2]))
                .andExpect(jsonPath("$.endpoints[2].name").value("/c"))
                .andExpect(jsonPath("$.endpoints[2].requests").value(125))
                .andExpect(jsonPath("$.endpoints[2].failures").value(41))
                .andExpect(jsonPath("$.endpoints[2].requestsPerSecond").value(3.1))
                .andExpect(jsonPath("$.endpoints[2].p95Ms").value(77.0))
                .andExpect(jsonPath("$.endpoints[3].requests").value(30))
                .andExpect(jsonPath("$.errors", hasSize(3)))
                .andExpect(jsonPath("$.errors[0].message").value("CatchResponseError('designed')"))
                .andExpect(jsonPath("$.errors[0].occurrences").value(40))
                .andExpect(jsonPath("$.errors[1].occurrences").value(5))
                .andExpect(jsonPath("$.errors[2].occurrences").value(3));
    }

    @Test
    void anUnknownRunIsNotFound() throws Exception {
        mvc.perform(get("/api/v1/runs/{id}/endpoints", "no-such-run").header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isNotFound());
    }

    /** /a's 47 values sorted: two of 100, 1..15 and 10..39. */
    private static double[] sortedA() {
        List<Double> v = new ArrayList<>(List.of(100.0, 100.0));
        for (int i = 1; i <= 15; i++) {
            v.add((double) i);
        }
        for (int i = 10; i <= 39; i++) {
            v.add((double) i);
        }
        return v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }

    private static SampleRow gauge(Instant at, Map<String, String> labels, double ms) {
        return SampleRow.of(RUN, at, "k6", "http_req_duration", "GAUGE", ms, labels);
    }

    private static SampleRow counter(Instant at, String metric, Map<String, String> labels, double value) {
        return SampleRow.of(RUN, at, "locust", metric, "COUNTER", value, new LinkedHashMap<>(labels));
    }

    private static SampleRow window(Instant at, Map<String, String> labels, double p95) {
        return new SampleRow(RUN, at, "locust", "http.req.duration.ms", "SUMMARY", 0, labels, "WINDOW", 0L,
                10_000_000L, null, null, null, Map.of("0.5", p95 / 2, "0.95", p95));
    }
}
