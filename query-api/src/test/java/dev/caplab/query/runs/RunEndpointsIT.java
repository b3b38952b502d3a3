package dev.caplab.query.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.caplab.query.testing.Ep19Runs;
import dev.caplab.query.testing.StoreTestSupport;
import dev.caplab.query.testing.Tokens;
import dev.caplab.store.access.AlertRepository;
import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.AlertKind;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
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

/** The REST endpoints over the real tables of the embedded ClickHouse, holding the EP19 runs. */
@SpringBootTest
@AutoConfigureMockMvc
@Import(StoreTestSupport.class)
class RunEndpointsIT {

    @Autowired
    MockMvc mvc;

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        StoreTestSupport.properties(registry);
    }

    private static MockHttpServletRequestBuilder read(String path, Object... uriVariables) {
        return get(path, uriVariables).header(HttpHeaders.AUTHORIZATION, Tokens.READ);
    }

    @Test
    void filtersRunsByProviderTierLabelAndTime() throws Exception {
        mvc.perform(read("/api/v1/runs").param("provider", "lightnode"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.length()").value(2))
                .andExpect(jsonPath("$[0].runId").value(Ep19Runs.LIGHTNODE_1));
        mvc.perform(read("/api/v1/runs").param("tier", "2vcpu-2gb").param("label", "episode=ep19"))
                .andExpect(jsonPath("$.length()").value(1))
                .andExpect(jsonPath("$[0].measuredEgressMbps").value(2400.0))
                .andExpect(jsonPath("$[0].labels.episode").value("ep19"));
        mvc.perform(read("/api/v1/runs").param("from", "2026-07-29T00:00:00Z").param("to", "2026-07-29T23:00:00Z"))
                .andExpect(jsonPath("$.length()").value(1))
                .andExpect(jsonPath("$[0].runId").value(Ep19Runs.AWS_2));
        mvc.perform(read("/api/v1/runs").param("limit", "1").param("offset", "2"))
                .andExpect(jsonPath("$.length()").value(1))
                .andExpect(jsonPath("$[0].runId").value(Ep19Runs.LIGHTNODE_2));
    }

    /** Ep19Runs: three COMPLETED runs, LIGHTNODE_2 started first, then AWS_2, then LIGHTNODE_1. */
    @Test
    void listsRunsByStatusInTheOrderAskedWithTheirOutcome() throws Exception {
        mvc.perform(read("/api/v1/runs").param("sort", "runId").param("order", "asc"))
                .andExpect(jsonPath("$[*].runId").value(org.hamcrest.Matchers.contains(Ep19Runs.AWS_2,
                        Ep19Runs.LIGHTNODE_1, Ep19Runs.LIGHTNODE_2)));
        mvc.perform(read("/api/v1/runs").param("sort", "startedAt").param("order", "asc").param("limit", "1")
                        .param("offset", "1"))
                .andExpect(jsonPath("$[*].runId").value(org.hamcrest.Matchers.contains(Ep19Runs.AWS_2)));
        mvc.perform(read("/api/v1/runs").param("status", "COMPLETED")).andExpect(jsonPath("$.length()").value(3));
        mvc.perform(read("/api/v1/runs").param("status", "RUNNING")).andExpect(jsonPath("$.length()").value(0));
        // the outcome is the stored conclusion's, as the run's detail gives it
        mvc.perform(read("/api/v1/runs").param("provider", "lightnode"))
                .andExpect(jsonPath("$[0].runId").value(Ep19Runs.LIGHTNODE_1))
                .andExpect(jsonPath("$[0].maxStableX").value(18.0))
                .andExpect(jsonPath("$[0].failedX").value(19.0))
                .andExpect(jsonPath("$[0].bottleneck").value("cpu.cores@node"))
                .andExpect(jsonPath("$[1].bottleneck").value(org.hamcrest.Matchers.startsWith("net.tx.mbps@")));
        mvc.perform(read("/api/v1/runs").param("sort", "cost"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.parameter").value("sort"));
        mvc.perform(read("/api/v1/runs").param("limit", "1001"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.parameter").value("limit"));
    }

    /** The choices are every stored run's values, each counted: here, the whole list counted by the test. */
    @Test
    void runChoicesCountEveryRunByEachFilter() throws Exception {
        var json = tools.jackson.databind.json.JsonMapper.builder().build();
        tools.jackson.databind.JsonNode runs = json.readTree(mvc.perform(read("/api/v1/runs").param("limit", "1000"))
                .andReturn().getResponse().getContentAsString());
        tools.jackson.databind.JsonNode choices = json.readTree(mvc.perform(read("/api/v1/run-choices"))
                .andExpect(status().isOk()).andReturn().getResponse().getContentAsString());
        for (String[] filter : new String[][] {{"systems", "sutName"}, {"providers", "provider"}, {"tiers", "tier"},
                {"tools", "tool"}, {"statuses", "status"}}) {
            java.util.Map<String, Long> counted = new java.util.TreeMap<>();
            runs.forEach(r -> {
                if (!r.path(filter[1]).isNull() && !r.path(filter[1]).asString().isEmpty()) {
                    counted.merge(r.path(filter[1]).asString(), 1L, Long::sum);
                }
            });
            java.util.Map<String, Long> offered = new java.util.LinkedHashMap<>();
            choices.path(filter[0]).forEach(c -> offered.put(c.path("value").asString(), c.path("runs").asLong()));
            assertThat(offered).as(filter[0]).containsExactlyEntriesOf(counted);
        }
        long inCohorts = 0;
        for (tools.jackson.databind.JsonNode c : choices.path("cohorts")) {
            inCohorts += c.path("runs").asLong();
        }
        assertThat(inCohorts).as("every run in one cohort").isEqualTo(runs.size());
    }

    @Test
    void runDetailShowsTheOneVcpuCliffAtEighteen() throws Exception {
        mvc.perform(read("/api/v1/runs/" + Ep19Runs.LIGHTNODE_1))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.run.vcpu").value(1.0))
                .andExpect(jsonPath("$.maxStableX").value(18.0))
                .andExpect(jsonPath("$.failedX").value(19.0))
                .andExpect(jsonPath("$.conclusion.bottleneck.metric").value("cpu.cores"))
                .andExpect(jsonPath("$.conclusion.bottleneck.source").value("node"))
                .andExpect(jsonPath("$.conclusion.bottleneck.rule").value("SMALLEST_SAFE_CAPACITY"))
                .andExpect(jsonPath("$.conclusion.resources[0].cappedByCliff").value(true))
                .andExpect(jsonPath("$.conclusion.resources[0].safeCapacityX").value(18.0))
                .andExpect(jsonPath("$.steps[4].passed").value(false))
                .andExpect(jsonPath("$.steps[4].failedRules").value("no-dropped-sessions (observed 3)"))
                .andExpect(jsonPath("$.steps[0].warmupMillis").value(15000))
                .andExpect(jsonPath("$.fits[0].cliff").value(true))
                .andExpect(jsonPath("$.fits[0].kneeX").value(18.0))
                .andExpect(jsonPath("$.fits[0].kneeLower95").value(17.4))
                .andExpect(jsonPath("$.fits[0].segments.length()").value(2));
        mvc.perform(read("/api/v1/runs/" + Ep19Runs.LIGHTNODE_2))
                .andExpect(jsonPath("$.maxStableX").value(50.0))
                .andExpect(jsonPath("$.conclusion.bottleneck.metric").value("net.tx.mbps"));
    }

    @Test
    void runDetailListsTheAlertsRaisedForTheRun() throws Exception {
        String message = "input rejected: label 'path' value of 70000 bytes is over the 4096-byte limit";
        new AlertRepository(StoreTestSupport.database().dataSource()).insertBatch(List.of(Alert.newBuilder()
                .setRunId(Ep19Runs.AWS_2).setAt(Instant.parse("2026-07-29T10:00:00Z")).setKind(AlertKind.STEP_FAILED)
                .setStepIndex(null).setMessage(message).build()), "run-alerts-it");
        mvc.perform(read("/api/v1/runs/" + Ep19Runs.AWS_2))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.alerts[*].message", hasItem(message)))
                .andExpect(jsonPath("$.alerts[*].kind", hasItem("STEP_FAILED")));
        mvc.perform(read("/api/v1/runs/" + Ep19Runs.LIGHTNODE_2))
                .andExpect(jsonPath("$.alerts[*].message", not(hasItem(message))));
    }

    @Test
    void amendedStepsAndLateCountsAreShownFromTheNewestVersions() throws Exception {
        // Ep19Runs: LightNode 2 vCPU's step 1 got version 2 rows with late counts beside version 1, and the run's
        // lateness row version 2 (3 late, 2 beyond) beside version 1 (1 late, 0 beyond)
        mvc.perform(read("/api/v1/runs/" + Ep19Runs.LIGHTNODE_2))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.lateness.lateSamples").value(3))
                .andExpect(jsonPath("$.lateness.beyondLatenessSamples").value(2))
                .andExpect(jsonPath("$.lateness.length()").value(2))
                .andExpect(jsonPath("$.steps.length()").value(4))
                .andExpect(jsonPath("$.steps[1].stepIndex").value(Ep19Runs.AMENDED_STEP))
                .andExpect(jsonPath("$.steps[1].lateSamples").value(3))
                .andExpect(jsonPath("$.steps[1].amended").value(true))
                .andExpect(jsonPath("$.steps[1].passed").value(true))
                .andExpect(jsonPath("$.steps[0].lateSamples").value(0))
                .andExpect(jsonPath("$.steps[0].amended").value(false))
                .andExpect(jsonPath("$.steps[3].amended").value(false));
        mvc.perform(read("/api/v1/runs/" + Ep19Runs.LIGHTNODE_2 + "/steps"))
                .andExpect(jsonPath("$[1].lateSamples").value(3))
                .andExpect(jsonPath("$[1].amended").value(true))
                .andExpect(jsonPath("$[2].amended").value(false));
        mvc.perform(read("/api/v1/runs/" + Ep19Runs.LIGHTNODE_2 + "/aggregates").param("metric", "cpu.cores"))
                .andExpect(jsonPath("$.length()").value(4))
                .andExpect(jsonPath("$[1].lateSamples").value(2))
                .andExpect(jsonPath("$[0].lateSamples").value(0))
                // storage's own fields are not served
                .andExpect(jsonPath("$[1].lateCount").doesNotExist())
                .andExpect(jsonPath("$[1].version").doesNotExist())
                .andExpect(jsonPath("$[1].quantiles").doesNotExist())
                .andExpect(jsonPath("$[1].load").doesNotExist())
                .andExpect(jsonPath("$[1].sum").doesNotExist());
        // a run nothing came late for
        mvc.perform(read("/api/v1/runs/" + Ep19Runs.AWS_2))
                .andExpect(jsonPath("$.lateness.lateSamples").value(0))
                .andExpect(jsonPath("$.lateness.beyondLatenessSamples").value(0))
                .andExpect(jsonPath("$.steps[*].amended", not(hasItem(true))));
    }

    @Test
    void aggregatesAndFitsAsJsonAndCsv() throws Exception {
        mvc.perform(read("/api/v1/runs/" + Ep19Runs.AWS_2 + "/aggregates").param("metric", "mem.used.bytes"))
                .andExpect(jsonPath("$.length()").value(9))
                .andExpect(jsonPath("$[0].p95").isNumber())
                .andExpect(jsonPath("$[0].p90").doesNotExist());
        // an empty parameter does not filter: 9 steps x (3 node metrics + the 4 derived throughput series of
        // Ep19Runs.throughputAws2), 2 fitted resources and the request rate's fit
        mvc.perform(read("/api/v1/runs/" + Ep19Runs.AWS_2 + "/aggregates").param("metric", "").param("source", ""))
                .andExpect(jsonPath("$.length()").value(9 * (3 + 4)));
        mvc.perform(read("/api/v1/runs/" + Ep19Runs.AWS_2 + "/fits").param("metric", ""))
                .andExpect(jsonPath("$.length()").value(2 + 1));
        String csv = mvc.perform(read("/api/v1/runs/" + Ep19Runs.LIGHTNODE_2 + "/fits").param("format", "csv"))
                .andExpect(status().isOk())
                .andReturn().getResponse().getContentAsString();
        assertThat(csv.lines().toList()).hasSize(3);
        assertThat(csv).contains("runId,source,metric,model");
        // the fit's own fields, then its flat ones: base 0 and 1.9 Mbit/s per viewer, no knee, a resource
        assertThat(csv.lines().filter(l -> l.contains(",net.tx.mbps,linear,1,viewers,5,"))).singleElement()
                .satisfies(l -> assertThat(l).endsWith(",0.0,1.9,,,,false"));
        mvc.perform(read("/api/v1/runs/" + Ep19Runs.LIGHTNODE_1 + "/steps").accept("text/csv"))
                .andExpect(content().string(containsString("stepIndex")))
                // the load map is a JSON object in its cell
                .andExpect(content().string(containsString("\"{\"\"viewers\"\":19.0}\"")));
    }

    @Test
    void injectionAttemptsThroughEveryParameterMatchNothingAndChangeNothing() throws Exception {
        String[] attacks = {"' OR '1'='1", "lightnode' --", "x'); DROP TABLE runs; --", "\\' OR 1=1 #",
                "lightnode\u0000", "`runs`", "{sut:String}"};
        for (String attack : attacks) {
            for (String param : new String[]{"sut", "version", "provider", "region", "tier", "tool"}) {
                mvc.perform(read("/api/v1/runs").param(param, attack))
                        .andExpect(status().isOk()).andExpect(jsonPath("$.length()").value(0));
            }
            mvc.perform(read("/api/v1/runs").param("label", attack + "=" + attack))
                    .andExpect(status().isOk()).andExpect(jsonPath("$.length()").value(0));
            mvc.perform(read("/api/v1/runs/{id}", attack)).andExpect(status().isNotFound());
            mvc.perform(read("/api/v1/runs/{id}/aggregates", Ep19Runs.AWS_2).param("metric", attack)
                    .param("source", attack)).andExpect(status().isOk()).andExpect(jsonPath("$.length()").value(0));
            mvc.perform(read("/api/v1/runs/{id}/fits", Ep19Runs.AWS_2).param("metric", attack))
                    .andExpect(status().isOk()).andExpect(jsonPath("$.length()").value(0));
        }
        mvc.perform(read("/api/v1/runs").param("limit", "1; DROP TABLE runs")).andExpect(status().isBadRequest());
        try (Connection c = StoreTestSupport.database().dataSource().getConnection();
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count() FROM runs FINAL")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(3);
        }
    }

    @Test
    void csvByParameterProblemsNamingTheParameterAndTokens() throws Exception {
        String byParam = mvc.perform(read("/api/v1/runs").param("format", "csv"))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith("text/csv"))
                .andReturn().getResponse().getContentAsString();
        assertThat(byParam.lines().findFirst().orElseThrow()).startsWith("runId,startedAt,endedAt,status,sutName");
        assertThat(byParam).contains(Ep19Runs.LIGHTNODE_1 + ",").contains("\"{\"\"episode\"\":\"\"ep19\"\"");
        mvc.perform(read("/api/v1/runs/nope"))
                .andExpect(status().isNotFound())
                .andExpect(content().contentTypeCompatibleWith("application/problem+json"))
                .andExpect(jsonPath("$.type").value("https://caplab.dev/problems/not-found"))
                .andExpect(jsonPath("$.detail").value("no run with id 'nope'"));
        mvc.perform(read("/api/v1/runs/nope/fits")).andExpect(status().isNotFound());
        mvc.perform(read("/api/v1/runs/nope/steps")).andExpect(status().isNotFound());
        mvc.perform(read("/api/v1/runs").param("from", "yesterday"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.parameter").value("from"));
        mvc.perform(read("/api/v1/runs").param("label", "noequals"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value("parameter 'label' = 'noequals': expected key=value"));
        mvc.perform(get("/api/v1/runs"))
                .andExpect(status().isUnauthorized())
                .andExpect(org.springframework.test.web.servlet.result.MockMvcResultMatchers.header()
                        .string(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"caplab\""))
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.startsWith(
                        "missing token: send 'Authorization: Bearer <token>'")));
        mvc.perform(get("/api/v1/runs").header(HttpHeaders.AUTHORIZATION, "Bearer not-a-known-token-at-all"))
                .andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.detail").value("unknown token"));
        mvc.perform(get("/api/v1/runs/" + Ep19Runs.LIGHTNODE_1 + "/aggregates")
                        .header(HttpHeaders.AUTHORIZATION, Tokens.WRITE_ONLY))
                .andExpect(status().isForbidden())
                .andExpect(jsonPath("$.detail").value("token 'loadgen' lacks the 'read' scope"));
    }

    @Test
    void openApiDocumentsEveryEndpointWithoutAToken() throws Exception {
        mvc.perform(get("/v3/api-docs"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.paths['/api/v1/runs/{runId}/fits']").exists())
                .andExpect(jsonPath("$.paths['/api/v1/compare']").exists())
                .andExpect(jsonPath("$.paths['/api/v1/plans'].post").exists())
                .andExpect(jsonPath("$.paths['/api/v1/sql'].post").exists())
                .andExpect(jsonPath("$.components.schemas.StepView.properties.amended.description").value(
                        containsString("lateSamples > 0")))
                .andExpect(jsonPath("$.components.schemas.RunLateness.properties.beyondLatenessSamples.description")
                        .value(containsString("in no aggregate")))
                .andExpect(jsonPath("$.info.title").value("caplab API"))
                .andExpect(jsonPath("$.info.version").value("1.0"))
                .andExpect(jsonPath("$.components.schemas.RunSummary.properties.status.enum").value(
                        org.hamcrest.Matchers.containsInAnyOrder("RUNNING", "COMPLETED", "ABORTED", "FAILED")))
                .andExpect(jsonPath("$.components.schemas.RunBottleneck.properties.rule.enum").value(
                        org.hamcrest.Matchers.containsInAnyOrder("SMALLEST_SAFE_CAPACITY", "FIRST_STEP_OVER_MARGIN")))
                .andExpect(jsonPath("$.components.schemas.RunSummary.properties.memoryBytes.description")
                        .value(containsString("bytes")));
        // every field of the views read first says what it is
        String docs = mvc.perform(get("/v3/api-docs")).andReturn().getResponse().getContentAsString();
        tools.jackson.databind.JsonNode schemas = tools.jackson.databind.json.JsonMapper.builder().build()
                .readTree(docs).path("components").path("schemas");
        java.util.List<String> undocumented = new java.util.ArrayList<>();
        for (String name : java.util.List.of("RunSummary", "RunChoices", "Choice", "Cohort", "StepView",
                "StepAggregateRow", "FitView", "ConclusionView", "RunBottleneck", "ResourceEstimate", "RunWarning",
                "RunLateness")) {
            assertThat(schemas.has(name)).as(name).isTrue();
            schemas.path(name).path("properties").properties().forEach(p -> {
                if (p.getValue().path("description").asString("").isBlank()) {
                    undocumented.add(name + "." + p.getKey());
                }
            });
        }
        assertThat(undocumented).isEmpty();
        // a fit is the schema's record as served: its fields by their schema names, storage's version left out
        assertThat(schemas.path("FitView").path("properties").propertyNames()).contains("rSquared", "segments",
                "throughputFit").doesNotContain("version", "schema", "specificData", "rsquared");
    }
}
