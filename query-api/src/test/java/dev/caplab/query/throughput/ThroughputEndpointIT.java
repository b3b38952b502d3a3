package dev.caplab.query.throughput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.nullValue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.caplab.query.testing.Ep19Runs;
import dev.caplab.query.testing.RawTraffic;
import dev.caplab.query.testing.RawTrafficFigures;
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
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /api/v1/runs/{id}/throughput}, the run detail's throughput limit and warnings, and {@link ThroughputService},
 * over the real tables of the embedded ClickHouse with the EP19 runs. The 2 vCPU AWS run's throughput is what the
 * production topology derived from raw load-tool readings ({@link RawTraffic}); every figure expected here is the
 * test's arithmetic on those readings ({@link RawTrafficFigures}), never a stored value.
 */
@SpringBootTest
@AutoConfigureMockMvc
@Import(StoreTestSupport.class)
class ThroughputEndpointIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

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
        List<RawTrafficFigures> expected = RawTrafficFigures.of(Ep19Runs.AWS_2_STARTED);
        JsonNode t = JSON.readTree(mvc.perform(read("/api/v1/runs/{id}/throughput", Ep19Runs.AWS_2))
                .andExpect(status().isOk()).andReturn().getResponse().getContentAsString());
        assertThat(t.path("loadExpression").asString()).isEqualTo(RawTraffic.LOAD);
        assertThat(t.path("steps")).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            RawTrafficFigures e = expected.get(i);
            JsonNode s = t.path("steps").get(i);
            String what = "step " + i + ": " + s + " expected " + e;
            assertThat(s.path("x").asDouble()).as(what).isEqualTo(e.x());
            assertThat(s.path("requestsPerSecond").asDouble()).as(what)
                    .isCloseTo(e.requestsPerSecond(), within(0.01 * e.requestsPerSecond()));
            assertThat(s.path("errorRatio").asDouble()).as(what)
                    .isCloseTo(e.errorRatio(), within(0.01 * e.errorRatio() + 1e-5));
            // a window at a step's edge may fall on either side of it: ±0.5 ms on the median of ±1 ms readings
            assertThat(s.path("latencyP50Ms").asDouble()).as(what).isCloseTo(e.p50Ms(), within(0.5));
            assertThat(s.path("latencyP95Ms").asDouble()).as(what).isCloseTo(e.p95Ms(), within(1.0));
            assertThat(s.path("latencyP99Ms").asDouble()).as(what).isCloseTo(e.p99Ms(), within(1.5));
            assertThat(s.path("latencyCombination").asString()).as(what).startsWith("median of the tool's");
            assertThat(s.path("loadGeneratorCpuPercent").asDouble()).as(what)
                    .isCloseTo(e.generatorCpuPercent(), within(1e-9));
        }
        // the rate rises 20 requests/s per viewer up to its cap: the knee is at the end of the rise, and the
        // plateau is the capped steps' mean rate
        double rise = RawTrafficFigures.lastRisingX(expected);
        JsonNode limit = t.path("throughputLimit");
        assertThat(limit.path("kneeLower95").asDouble()).as(limit.toString()).isLessThanOrEqualTo(rise);
        assertThat(limit.path("kneeUpper95").asDouble()).as(limit.toString()).isGreaterThanOrEqualTo(rise);
        assertThat(limit.path("kneeX").asDouble()).as(limit.toString()).isCloseTo(rise, within(0.1 * rise));
        double plateau = expected.stream().filter(e -> e.x() > rise)
                .mapToDouble(RawTrafficFigures::requestsPerSecond).average().orElseThrow();
        assertThat(limit.path("plateauRatePerSecond").asDouble()).as(limit.toString())
                .isCloseTo(plateau, within(0.02 * plateau));
        // the generator's CPU first reaches 90 % at or past the knee's lower bound
        double saturated = RawTrafficFigures.firstSaturatedX(expected, limit.path("kneeLower95").asDouble())
                .orElseThrow();
        assertThat(limit.path("generatorLimited").asBoolean()).isTrue();
        assertThat(limit.path("generatorSaturatedAtX").asDouble()).isEqualTo(saturated);
        assertThat(limit.path("generatorCpuPercent").asDouble()).isCloseTo(expected.stream()
                .filter(e -> e.x() == saturated).findFirst().orElseThrow().generatorCpuPercent(), within(1e-9));
        assertThat(t.path("warnings").get(0).asString()).contains("the load generator, not the server");
        // the run's declared rules (Ep19Runs.SLO_RULES): only the latency one belongs on the chart
        assertThat(t.path("sloLines")).hasSize(1);
        assertThat(t.path("sloLines").get(0).path("threshold").asDouble()).isEqualTo(200.0);
        assertThat(t.path("sloLines").get(0).path("axis").asString()).isEqualTo("latency");

        mvc.perform(read("/api/v1/runs/{id}", Ep19Runs.AWS_2))
                .andExpect(jsonPath("$.throughputLimit.kneeX").value(limit.path("kneeX").asDouble()))
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
        List<RawTrafficFigures> expected = RawTrafficFigures.of(Ep19Runs.AWS_2_STARTED);
        assertThat(lines).hasSize(expected.size() + 1);
        assertThat(lines.getFirst()).startsWith("stepIndex,load,x,requestsPerSecond,requests,errorRatio,latencyP50Ms");
        List<String> header = List.of(lines.getFirst().split(","));
        for (int i = 0; i < expected.size(); i++) {
            List<String> row = List.of(lines.get(i + 1).split(","));
            double rate = Double.parseDouble(row.get(header.indexOf("requestsPerSecond")));
            assertThat(rate).as(lines.get(i + 1)).isCloseTo(expected.get(i).requestsPerSecond(),
                    within(0.01 * expected.get(i).requestsPerSecond()));
        }
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
