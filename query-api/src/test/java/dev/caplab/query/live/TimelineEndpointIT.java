package dev.caplab.query.live;

import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.nullValue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.caplab.query.testing.StoreTestSupport;
import dev.caplab.query.testing.Tokens;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.access.SampleRepository;
import dev.caplab.store.row.RunRow;
import dev.caplab.store.row.SampleRow;
import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.store.testing.TestDatabase;
import java.time.Instant;
import java.util.ArrayList;
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
 * {@code /api/v1/runs/{id}/timeline} and {@code /live} over the real tables of the embedded ClickHouse, for a run a
 * Locust CSV-like feed started and still feeds: request totals written once as the {@code Aggregated} row and once per
 * endpoint (counted once: 50/s, not 100/s), failure totals, the tool's window percentiles (the total row's, combined
 * by their median) and the user count. Expected values are arithmetic over
 * what this test writes.
 */
@SpringBootTest
@AutoConfigureMockMvc
@Import(TimelineEndpointIT.OwnStore.class)
class TimelineEndpointIT {

    private static final String RUN = "timeline-locust-counters";
    /** On a 10 s boundary, so the 10 s buckets hold whole seconds. */
    private static final Instant T0 = Instant.parse("2026-08-01T12:00:00Z");
    private static final int SECONDS = 60;

    @Autowired
    MockMvc mvc;

    /** A database of its own: the runs written here must not show in the other ITs' run lists. */
    private static TestDatabase database;

    static synchronized TestDatabase database() {
        if (database == null) {
            database = EmbeddedClickHouse.shared().freshDatabase("timeline_it");
        }
        return database;
    }

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        StoreTestSupport.properties(registry, TimelineEndpointIT::database);
    }

    /** Named apart from the other ITs' {@code dataSource} beans, which slice tests' scanning may also see. */
    @TestConfiguration(proxyBeanMethods = false)
    static class OwnStore {
        @Bean
        DataSource timelineDataSource() {
            return database().dataSource();
        }
    }

    @BeforeAll
    static void feed() {
        var ds = database().dataSource();
        new RunRepository(ds).insertBatch(List.of(new RunRow(RUN, T0, "shop", "2.0", null, "lab", null, null, null,
                null, null, null, null, "locust", Map.of(), List.of(), List.of(), "users", "INFERRED", null, null,
                null, 1)), "timeline-run");
        List<SampleRow> rows = new ArrayList<>();
        Map<String, String> total = Map.of("name", "Aggregated");
        for (int s = 0; s < SECONDS; s++) {
            Instant t = T0.plusSeconds(s);
            rows.add(SampleRow.of(RUN, t, "locust", "http.reqs.count", "COUNTER", 50.0 * s, total));
            rows.add(SampleRow.of(RUN, t, "locust", "http.reqs.count", "COUNTER", 30.0 * s,
                    Map.of("name", "/a", "method", "GET")));
            rows.add(SampleRow.of(RUN, t, "locust", "http.reqs.count", "COUNTER", 20.0 * s,
                    Map.of("name", "/b", "method", "GET")));
            rows.add(SampleRow.of(RUN, t, "locust", "http.req.failed.count", "COUNTER", 2.0 * s, total));
            rows.add(SampleRow.of(RUN, t, "locust", "locust.users", "GAUGE", 25, Map.of()));
            // Locust's window percentiles: the total row's p95 40, 50, … 130 ms across each 10 s; an endpoint's 1 s
            rows.add(window(t, total, 40.0 + s % 10 * 10));
            rows.add(window(t, Map.of("name", "/a", "method", "GET"), 1000.0));
        }
        new SampleRepository(ds).insertBatch(rows, "timeline-samples");
    }

    private static SampleRow window(Instant t, Map<String, String> labels, double p95) {
        return new SampleRow(RUN, t, "locust", "http.req.duration.ms", "SUMMARY", p95, labels, "WINDOW", 50L,
                1_000_000L, null, null, null, Map.of("0.5", p95 / 2, "0.95", p95));
    }

    @Test
    void countersBecomeRatesCountedOnceWithTheLoadBeside() throws Exception {
        mvc.perform(get("/api/v1/runs/{id}/timeline?bucketSeconds=10", RUN).header(HttpHeaders.AUTHORIZATION,
                        Tokens.READ))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.bucketSeconds").value(10))
                .andExpect(jsonPath("$.requestSource").value("request counters"))
                .andExpect(jsonPath("$.loadSource").value("locust.users"))
                .andExpect(jsonPath("$.points.length()").value(SECONDS / 10))
                // the first bucket has no bucket before it to rise from
                .andExpect(jsonPath("$.points[0].requestsPerSecond").value(nullValue()))
                .andExpect(jsonPath("$.points[0].load").value(25.0))
                // the Aggregated row's 50/s, the endpoints' 30 + 20 not added to it; 2 failures/s of 50
                .andExpect(jsonPath("$.points[3].at").value(T0.plusSeconds(30).toString()))
                .andExpect(jsonPath("$.points[3].requestsPerSecond").value(closeTo(50.0, 1e-9)))
                .andExpect(jsonPath("$.points[3].errorsPerSecond").value(closeTo(2.0, 1e-9)))
                .andExpect(jsonPath("$.points[3].errorRatio").value(closeTo(0.04, 1e-9)))
                // the median of the total row's ten window p95s 40..130 ms: (80 + 90) / 2, the endpoint's left out
                .andExpect(jsonPath("$.points[3].latencyP95Ms").value(closeTo(85.0, 1e-9)));
    }

    @Test
    void liveStatusCountsTheLastTenSecondsAndSaysWhenAnIdleRunEnds() throws Exception {
        Instant last = T0.plusSeconds(SECONDS - 1);
        mvc.perform(get("/api/v1/runs/{id}/live", RUN).header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value("RUNNING"))
                .andExpect(jsonPath("$.samples").value(SECONDS * 7))
                .andExpect(jsonPath("$.lastSampleAt").value(last.toString()))
                // seconds 50..59: 7 samples each
                .andExpect(jsonPath("$.samplesPerSecond").value(closeTo(7.0, 1e-9)))
                .andExpect(jsonPath("$.rateWindowSeconds").value(10))
                .andExpect(jsonPath("$.currentStep").value(nullValue()))
                .andExpect(jsonPath("$.end.by").value("IDLE"))
                .andExpect(jsonPath("$.end.idleEndSeconds").value(120))
                .andExpect(jsonPath("$.end.idleEndsAt").value(last.plusSeconds(120).toString()));
    }

    @Test
    void aBucketOutsideItsRangeIsRefusedByName() throws Exception {
        mvc.perform(get("/api/v1/runs/{id}/timeline?bucketSeconds=0", RUN).header(HttpHeaders.AUTHORIZATION,
                        Tokens.READ))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("bucketSeconds")));
        mvc.perform(get("/api/v1/runs/{id}/live", "no-such-run").header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isNotFound());
    }
}
