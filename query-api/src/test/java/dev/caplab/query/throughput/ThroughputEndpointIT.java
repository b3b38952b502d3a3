package dev.caplab.query.throughput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.nullValue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.caplab.query.testing.Ep19Runs;
import dev.caplab.query.testing.StoreTestSupport;
import dev.caplab.query.testing.Tokens;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/**
 * {@code /api/v1/runs/{id}/throughput}, the run detail's throughput limit and warnings, and {@link ThroughputService},
 * over the real tables of the embedded ClickHouse with the EP19 runs (the 2 vCPU AWS run carries a load tool's
 * derived throughput: {@code Ep19Runs.throughputAws2}).
 */
@SpringBootTest
@AutoConfigureMockMvc
@Import(StoreTestSupport.class)
class ThroughputEndpointIT {

    @Autowired
    MockMvc mvc;
    @Autowired
    ThroughputService service;

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        StoreTestSupport.properties(registry);
    }

    private static MockHttpServletRequestBuilder read(String path, Object... uriVariables) {
        return get(path, uriVariables).header(HttpHeaders.AUTHORIZATION, Tokens.READ);
    }

    @Test
    void perStepRateErrorsPercentilesTheLimitAndTheGeneratorWarning() throws Exception {
        mvc.perform(read("/api/v1/runs/{id}/throughput", Ep19Runs.AWS_2))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.loadExpression").value("viewers"))
                .andExpect(jsonPath("$.steps.length()").value(9))
                // step 2: x = 50 → 20·50 = 1000/s, p50 = 20 + 5 = 25 ms, p95 = 50, p99 = 75
                .andExpect(jsonPath("$.steps[2].x").value(50.0))
                .andExpect(jsonPath("$.steps[2].requestsPerSecond").value(1000.0))
                .andExpect(jsonPath("$.steps[2].errorRatio").value(0.001))
                .andExpect(jsonPath("$.steps[2].latencyP50Ms").value(25.0))
                .andExpect(jsonPath("$.steps[2].latencyP95Ms").value(50.0))
                .andExpect(jsonPath("$.steps[2].latencyP99Ms").value(75.0))
                .andExpect(jsonPath("$.steps[8].requestsPerSecond").value(3000.0))
                .andExpect(jsonPath("$.steps[8].passed").value(false))
                .andExpect(jsonPath("$.throughputLimit.kneeX").value(150.0))
                .andExpect(jsonPath("$.throughputLimit.kneeLower95").value(141.0))
                .andExpect(jsonPath("$.throughputLimit.kneeUpper95").value(159.0))
                .andExpect(jsonPath("$.throughputLimit.plateauRatePerSecond").value(3000.0))
                // generator CPU 40 + 0.3·x: 85 % at the knee (150), 100 % at x = 200, the first step ≥ 90 % after it
                .andExpect(jsonPath("$.throughputLimit.generatorLimited").value(true))
                .andExpect(jsonPath("$.throughputLimit.generatorSaturatedAtX").value(200.0))
                .andExpect(jsonPath("$.throughputLimit.generatorCpuPercent").value(100.0))
                .andExpect(jsonPath("$.warnings[0]").value(containsString("the load generator, not the server")))
                .andExpect(jsonPath("$.sloLines.length()").value(1))
                .andExpect(jsonPath("$.sloLines[0].threshold").value(200.0))
                .andExpect(jsonPath("$.sloLines[0].axis").value("latency"));

        mvc.perform(read("/api/v1/runs/{id}", Ep19Runs.AWS_2))
                .andExpect(jsonPath("$.throughputLimit.kneeX").value(150.0))
                .andExpect(jsonPath("$.warnings[0]").value(containsString("generator")))
                // the page, comparisons and reports tell the rate's fit from the resources' by this flag
                .andExpect(jsonPath("$.fits[?(@.source == 'caplab:throughput')].throughputFit").value(contains(true)))
                .andExpect(jsonPath("$.fits[?(@.metric == 'cpu.cores')].throughputFit").value(contains(false)));
    }

    @Test
    void csvHasOneRowPerStep() throws Exception {
        String csv = mvc.perform(read("/api/v1/runs/{id}/throughput", Ep19Runs.AWS_2).param("format", "csv"))
                .andExpect(status().isOk()).andReturn().getResponse().getContentAsString();
        List<String> lines = csv.lines().toList();
        assertThat(lines).hasSize(10);
        assertThat(lines.getFirst()).startsWith("stepIndex,load,x,requestsPerSecond,requests,errorRatio,latencyP50Ms");
        assertThat(lines.get(6)).contains(",150.0,3000.0,");
    }

    @Test
    void aRunWithoutRequestsHasStepsButNoRatesAndNoLimit() throws Exception {
        RunThroughput t = service.of(Ep19Runs.LIGHTNODE_1);
        assertThat(t.steps()).hasSize(5).allSatisfy(s -> assertThat(s.requestsPerSecond()).isNull());
        assertThat(t.throughputLimit()).isNull();
        assertThat(t.warnings()).isEmpty();
        mvc.perform(read("/api/v1/runs/{id}", Ep19Runs.LIGHTNODE_1))
                .andExpect(jsonPath("$.throughputLimit").value(nullValue()));
        mvc.perform(read("/api/v1/runs/{id}/throughput", "no-such-run")).andExpect(status().isNotFound());
    }
}
