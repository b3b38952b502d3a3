package dev.caplab.query.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.caplab.query.testing.Ep19Runs;
import dev.caplab.query.testing.StoreTestSupport;
import dev.caplab.query.testing.Tokens;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/** Comparisons and capacity plans over the EP19 tiers in the real embedded ClickHouse. */
@SpringBootTest
@AutoConfigureMockMvc
@Import(StoreTestSupport.class)
class CompareAndPlanIT {

    @Autowired
    MockMvc mvc;

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        StoreTestSupport.properties(registry);
    }

    @Test
    void comparesTheTwoVcpuNodeAcrossProvidersAndWarnsAboutTiers() throws Exception {
        mvc.perform(get("/api/v1/compare").param("sut", "mmx-standalone").param("groupBy", "provider")
                        .header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.rows.length()").value(3))
                .andExpect(jsonPath("$.rows[0].group").value("aws-lightsail"))
                .andExpect(jsonPath("$.rows[0].maxStableX").value(250.0))
                .andExpect(jsonPath("$.rows[0].bottleneck").value("mem.used.bytes"))
                .andExpect(jsonPath("$.rows[0].bottleneckRule").value("SMALLEST_SAFE_CAPACITY"))
                // (0.6·2 GiB − 0.4 GiB)/5.4e6 per viewer, from the stored conclusion
                .andExpect(jsonPath("$.rows[0].safeCapacityX").value(closeTo(159.073, 0.001)))
                .andExpect(jsonPath("$.rows[?(@.runId=='" + Ep19Runs.LIGHTNODE_2 + "')].bottleneck")
                        .value(hasItem("net.tx.mbps")))
                .andExpect(jsonPath("$.warnings[0]").value(containsString("must not be extrapolated")))
                .andExpect(jsonPath("$.warnings[1]").value(containsString("2 vCPU nodes hold 250 on aws-lightsail but 50 on lightnode (5.0x)")));
        mvc.perform(get("/api/v1/compare").param("runId", Ep19Runs.AWS_2).param("runId", Ep19Runs.LIGHTNODE_2)
                        .param("metric", "cpu.cores").param("format", "csv")
                        .header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isOk())
                .andExpect(content().string(containsString("group,runId,sutName")))
                .andExpect(content().string(containsString(",cpu.cores,0.15,0.0045,")));
        mvc.perform(get("/api/v1/compare").param("runId", "' OR 1=1 --")
                        .header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value(containsString("no such run")));
    }

    /** The plan at the run's margin and the run page read the same stored estimates, so they name the same limit. */
    @Test
    void aPlanAtTheRunsMarginAgreesWithTheRunDetail() throws Exception {
        for (String run : List.of(Ep19Runs.LIGHTNODE_2, Ep19Runs.AWS_2, Ep19Runs.LIGHTNODE_1)) {
            JsonNode detail = json(mvc.perform(get("/api/v1/runs/" + run)
                    .header(HttpHeaders.AUTHORIZATION, Tokens.READ)).andExpect(status().isOk()));
            JsonNode plan = json(mvc.perform(post("/api/v1/plans").contentType(MediaType.APPLICATION_JSON)
                    .content("{\"profile\": {\"load\": 10}, \"runIds\": [\"" + run + "\"]}")
                    .header(HttpHeaders.AUTHORIZATION, Tokens.READ)).andExpect(status().isOk()));
            JsonNode bottleneck = detail.at("/conclusion/bottleneck");
            JsonNode tier = plan.at("/tiers/0");
            assertThat(tier.get("bottleneck").asText()).as(run).isEqualTo(bottleneck.get("metric").asText());
            assertThat(tier.get("safeLoad").asDouble()).as(run)
                    .isCloseTo(bottleneck.get("value").asDouble(), within(1e-9));
            for (JsonNode need : tier.get("resources")) {
                JsonNode stored = null;
                for (JsonNode r : detail.at("/conclusion/resources")) {
                    if (r.get("metric").asText().equals(need.get("resource").asText())) {
                        stored = r;
                    }
                }
                assertThat(stored).as(run + " " + need.get("resource")).isNotNull();
                assertThat(need.get("safeX").asDouble()).isCloseTo(stored.get("safeCapacityX").asDouble(),
                        within(1e-9));
            }
        }
    }

    private static JsonNode json(org.springframework.test.web.servlet.ResultActions result) throws Exception {
        return JsonMapper.builder().build().readTree(result.andReturn().getResponse().getContentAsString());
    }

    @Test
    void aPlanNeverOffersALoadBeyondTheLastPassingStepOfANodeThatFellOver() throws Exception {
        List<String> fellOver = new java.util.ArrayList<>();
        for (String run : List.of(Ep19Runs.LIGHTNODE_2, Ep19Runs.AWS_2, Ep19Runs.LIGHTNODE_1)) {
            JsonNode detail = json(mvc.perform(get("/api/v1/runs/" + run)
                    .header(HttpHeaders.AUTHORIZATION, Tokens.READ)).andExpect(status().isOk()));
            JsonNode firstFailing = detail.at("/conclusion/firstFailingX");
            if (firstFailing.isMissingNode() || firstFailing.isNull()) {
                continue;
            }
            double failedAt = firstFailing.asDouble();
            JsonNode plan = json(mvc.perform(post("/api/v1/plans").contentType(MediaType.APPLICATION_JSON)
                    .content("{\"profile\": {\"load\": " + failedAt + "}, \"runIds\": [\"" + run + "\"]}")
                    .header(HttpHeaders.AUTHORIZATION, Tokens.READ)).andExpect(status().isOk()));
            JsonNode tier = plan.at("/tiers/0");
            double maxStable = detail.at("/conclusion/maxStableX").asDouble(0);
            assertThat(tier.get("fullCeilingLoad").asDouble()).as(run).isLessThanOrEqualTo(maxStable);
            assertThat(tier.get("safeLoad").asDouble()).as(run).isLessThanOrEqualTo(maxStable);
            assertThat(tier.get("fit").asText()).as(run + ": the load it failed at").isEqualTo("UNREACHABLE");
            assertThat(plan.get("warnings").toString()).contains(run);
            fellOver.add(run);
        }
        assertThat(fellOver).as("the 1 vCPU node fell over at 19 users").contains(Ep19Runs.LIGHTNODE_1);
    }

    @Test
    void aPlanCoversOneSystemAndOneLoadExpression() throws Exception {
        mvc.perform(post("/api/v1/plans").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"profile\": {\"load\": 10}, \"runIds\": [\"" + Ep19Runs.LIGHTNODE_1 + "\"],"
                                + " \"sut\": \"another-system\"}")
                        .header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.parameter").value("runIds"));
    }

    @Test
    void plansAProfileOnEachTierFromItsOwnFits() throws Exception {
        String body = """
                {"profile": {"name": "webinar", "load": 40},
                 "tiers": ["2vcpu-4gb", "2vcpu-2gb", "1vcpu-2gb"], "sut": "mmx-standalone"}""";
        mvc.perform(post("/api/v1/plans").contentType(MediaType.APPLICATION_JSON).content(body)
                        .header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.margin").value(0.6))
                .andExpect(jsonPath("$.tiers[0].fit").value("TIGHT"))
                .andExpect(jsonPath("$.tiers[0].bottleneck").value("net.tx.mbps"))
                .andExpect(jsonPath("$.tiers[1].fit").value("FITTING"))
                .andExpect(jsonPath("$.tiers[1].bottleneck").value("mem.used.bytes"))
                .andExpect(jsonPath("$.tiers[2].fit").value("UNREACHABLE"))
                .andExpect(jsonPath("$.tiers[2].safeLoad").value(18.0));
        mvc.perform(post("/api/v1/plans").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"profile\": {\"rooms\": 1, \"participants\": 3, \"cameras\": 5},"
                                + " \"tiers\": [\"1vcpu-2gb\"]}")
                        .header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.parameter").value("profile"));
        mvc.perform(post("/api/v1/plans").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"profile\": {\"load\": 10}, \"tiers\": [\"x' OR '1'='1\"]}")
                        .header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isNotFound());
    }

    @Test
    void everyListThatComesInIsBoundedWithAProblemNamingTheFieldAndTheLimit() throws Exception {
        String tiers = String.join(",", java.util.Collections.nCopies(21, "\"2vcpu-4gb\""));
        mvc.perform(post("/api/v1/plans").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"profile\": {\"load\": 10}, \"tiers\": [" + tiers + "]}")
                        .header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.parameter").value("tiers"))
                .andExpect(jsonPath("$.detail").value(containsString("at most 20")));
        String runIds = String.join(",", java.util.Collections.nCopies(21, "\"ep19-2vcpu-4gb\""));
        mvc.perform(post("/api/v1/plans").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"profile\": {\"load\": 10}, \"runIds\": [" + runIds + "]}")
                        .header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.parameter").value("runIds"))
                .andExpect(jsonPath("$.detail").value(containsString("at most 20")));
        var compare = get("/api/v1/compare").header(HttpHeaders.AUTHORIZATION, Tokens.READ);
        for (int i = 0; i < 51; i++) {
            compare.param("runId", "run-" + i);
        }
        mvc.perform(compare).andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.parameter").value("runId"))
                .andExpect(jsonPath("$.detail").value(containsString("at most 50")));
        var report = get("/api/v1/report").header(HttpHeaders.AUTHORIZATION, Tokens.READ);
        for (int i = 0; i < 7; i++) {
            report.param("run", "run-" + i);
        }
        mvc.perform(report).andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.parameter").value("run"))
                .andExpect(jsonPath("$.detail").value(containsString("at most 6 runs")));
        var runs = get("/api/v1/runs").header(HttpHeaders.AUTHORIZATION, Tokens.READ);
        for (int i = 0; i < 21; i++) {
            runs.param("label", "k" + i + "=v");
        }
        mvc.perform(runs).andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.parameter").value("label"))
                .andExpect(jsonPath("$.detail").value(containsString("at most 20 label filters")));
    }
}
