package dev.caplab.query.compare;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.caplab.query.testing.StoredVerdicts;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.query.testing.Ep19Runs;
import dev.caplab.query.testing.StoredConclusions;
import dev.caplab.query.testing.Tokens;
import dev.caplab.store.access.RunConclusionRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.access.StepRepository;
import dev.caplab.store.access.StepVerdictRepository;
import dev.caplab.store.row.RunRow;
import dev.caplab.store.row.StepRow;
import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.store.testing.TestDatabase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
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
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/**
 * Comparisons stay inside one system and one load expression, in the real embedded ClickHouse: the EP19 runs
 * (mmx-standalone, x = viewers) beside a LiveKit 1 vCPU run on loopback (holds 40 viewers, the most recent run) and an
 * mmx-standalone 1 vCPU run on hetzner driven by participants (holds 60). The old comparison read both extra runs
 * against EP19's LightNode 1 vCPU (holds 18) as "the same spec differs by provider".
 */
@SpringBootTest
@AutoConfigureMockMvc
@Import(CompareScopeIT.Store.class)
class CompareScopeIT {

    static final String LOOPBACK_LIVEKIT = "livekit-loopback-1vcpu";
    static final String HETZNER_PARTICIPANTS = "mmx-hetzner-1vcpu-participants";
    private static final Instant T0 = Instant.parse("2026-07-28T10:00:00Z");
    private static TestDatabase database;

    @Autowired
    MockMvc mvc;

    /** Its own database: the extra runs would change what the shared EP19 database answers other ITs. */
    static synchronized TestDatabase database() {
        if (database == null) {
            database = EmbeddedClickHouse.shared().freshDatabase("compare_scope");
            Ep19Runs.write(database.dataSource());
            writeOtherRuns(database.dataSource());
        }
        return database;
    }

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        registry.add("caplab.query.database", () -> database().name());
        registry.add("caplab.query.sql.clickhouse-url", () -> EmbeddedClickHouse.shared().httpUrl());
        registry.add("caplab.query.sql.user", () -> EmbeddedClickHouse.shared().user());
        registry.add("caplab.query.sql.password", () -> EmbeddedClickHouse.shared().password());
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class Store {
        @Bean
        DataSource dataSource() {
            return database().dataSource();
        }
    }

    private static MockHttpServletRequestBuilder compare() {
        return get("/api/v1/compare").param("groupBy", "provider").header(HttpHeaders.AUTHORIZATION, Tokens.READ);
    }

    @Test
    void withoutParametersComparesTheSystemOfTheMostRecentRunOnly() throws Exception {
        mvc.perform(compare())
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.rows.length()").value(1))
                .andExpect(jsonPath("$.sut").value("livekit"))
                .andExpect(jsonPath("$.scope").value(containsString("most recent run " + LOOPBACK_LIVEKIT)))
                .andExpect(jsonPath("$.rows[0].runId").value(LOOPBACK_LIVEKIT))
                .andExpect(jsonPath("$.rows[0].maxStableX").value(40.0))
                .andExpect(jsonPath("$.warnings.length()").value(0));
    }

    @Test
    void ep19ComparesByProviderAsBeforeWhileAnotherLoadExpressionStaysApart() throws Exception {
        mvc.perform(compare().param("sut", "mmx-standalone"))
                .andExpect(status().isOk())
                // hetzner's 60 participants is not 60 viewers: no "1 vCPU nodes hold 60 on hetzner but 18 on lightnode"
                .andExpect(jsonPath("$.warnings").value(everyItem(not(containsString("hetzner")))))
                .andExpect(jsonPath("$.sut").value("mmx-standalone"))
                .andExpect(jsonPath("$.rows.length()").value(4))
                .andExpect(jsonPath("$.cohorts.length()").value(2))
                .andExpect(jsonPath("$.cohorts[0].loadExpression").value("participants"))
                .andExpect(jsonPath("$.cohorts[0].runIds").value(contains(HETZNER_PARTICIPANTS)))
                .andExpect(jsonPath("$.cohorts[0].warnings.length()").value(0))
                .andExpect(jsonPath("$.cohorts[1].loadExpression").value("viewers"))
                .andExpect(jsonPath("$.cohorts[1].runIds.length()").value(3))
                // EP19's own claims, exactly the two a comparison of the three EP19 runs alone makes
                .andExpect(jsonPath("$.cohorts[1].warnings.length()").value(2))
                .andExpect(jsonPath("$.cohorts[1].warnings[0]").value(containsString(
                        "runs span tiers [1vcpu-2gb, 2vcpu-2gb, 2vcpu-4gb]: a curve measured on one tier must not be"
                                + " extrapolated")))
                .andExpect(jsonPath("$.cohorts[1].warnings[1]").value(containsString(
                        "2 vCPU nodes hold 250 on aws-lightsail but 50 on lightnode (5.0x)")))
                .andExpect(jsonPath("$.warnings").value(hasItem(containsString(
                        "runs of mmx-standalone use different load expressions [participants, viewers]"))))
                .andExpect(jsonPath("$.warnings").value(hasItem(containsString(
                        "2 vCPU nodes hold 250 on aws-lightsail but 50 on lightnode (5.0x)"))))
                .andExpect(jsonPath("$.warnings").value(everyItem(not(containsString("1vcpu-1gb")))));
    }

    @Test
    void runsOfTwoSystemsAreAnsweredPerSystemWithoutAProviderClaimAcrossThem() throws Exception {
        mvc.perform(compare().param("runId", Ep19Runs.LIGHTNODE_1).param("runId", LOOPBACK_LIVEKIT))
                .andExpect(status().isOk())
                // the "1 vCPU nodes hold 40 on loopback but 18 on lightnode (2.2x)"
                .andExpect(jsonPath("$.warnings").value(everyItem(not(containsString("vCPU nodes hold")))))
                .andExpect(jsonPath("$.sut").value(nullValue()))
                .andExpect(jsonPath("$.scope").value(containsString("different systems [livekit, mmx-standalone]")))
                .andExpect(jsonPath("$.cohorts.length()").value(2))
                .andExpect(jsonPath("$.cohorts[0].sutName").value("livekit"))
                .andExpect(jsonPath("$.cohorts[1].sutName").value("mmx-standalone"))
                .andExpect(jsonPath("$.rows[0].runId").value(LOOPBACK_LIVEKIT))
                .andExpect(jsonPath("$.warnings.length()").value(1))
                .andExpect(jsonPath("$.warnings[0]").value(containsString(
                        "runs test different systems [livekit, mmx-standalone]: they are compared per system")));
    }

    @Test
    void sameSystemUnderDifferentLoadExpressionsGetsNoTierOrProviderClaim() throws Exception {
        mvc.perform(compare().param("runId", Ep19Runs.LIGHTNODE_1).param("runId", HETZNER_PARTICIPANTS))
                .andExpect(status().isOk())
                // no "1 vCPU nodes hold 60 on hetzner but 18 on lightnode", no "runs span tiers [1vcpu-1gb, 1vcpu-2gb]"
                .andExpect(jsonPath("$.warnings").value(everyItem(not(containsString("vCPU nodes hold")))))
                .andExpect(jsonPath("$.warnings").value(everyItem(not(containsString("span tiers")))))
                .andExpect(jsonPath("$.sut").value("mmx-standalone"))
                .andExpect(jsonPath("$.cohorts.length()").value(2))
                .andExpect(jsonPath("$.warnings.length()").value(1))
                .andExpect(jsonPath("$.warnings[0]").value(containsString(
                        "runs of mmx-standalone use different load expressions [participants, viewers]")));
    }

    @Test
    void acrossSystemsOnRequestGroupsEverySystemAndKeepsEp19sClaim() throws Exception {
        mvc.perform(compare().param("acrossSystems", "true"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.warnings").value(everyItem(not(containsString("1 vCPU nodes hold")))))
                .andExpect(jsonPath("$.sut").value(nullValue()))
                .andExpect(jsonPath("$.rows.length()").value(5))
                .andExpect(jsonPath("$.cohorts.length()").value(3))
                .andExpect(jsonPath("$.cohorts[0].sutName").value("livekit"))
                .andExpect(jsonPath("$.cohorts[1].loadExpression").value("participants"))
                .andExpect(jsonPath("$.cohorts[2].loadExpression").value("viewers"))
                .andExpect(jsonPath("$.cohorts[2].warnings[1]").value(containsString(
                        "2 vCPU nodes hold 250 on aws-lightsail but 50 on lightnode (5.0x)")))
                .andExpect(jsonPath("$.warnings").value(hasItem(containsString(
                        "runs test different systems [livekit, mmx-standalone]"))))
                .andExpect(jsonPath("$.warnings").value(hasItem(containsString(
                        "mmx-standalone under load viewers: 2 vCPU nodes hold 250 on aws-lightsail but 50 on lightnode"))));
    }

    @Test
    void refusesContradictoryScopes() throws Exception {
        mvc.perform(compare().param("sut", "mmx-standalone").param("acrossSystems", "true"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.parameter").value("acrossSystems"));
        mvc.perform(compare().param("sut", "mmx-standalone").param("runId", LOOPBACK_LIVEKIT))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value(containsString("not runs of sut=mmx-standalone")));
    }

    /** Runs with steps, verdicts and their conclusion only: max stable load needs no aggregates or fits. */
    private static void writeOtherRuns(DataSource ds) {
        new RunRepository(ds).insertBatch(List.of(
                run(LOOPBACK_LIVEKIT, 10, "livekit", "loopback", "1vcpu-2gb", "viewers"),
                run(HETZNER_PARTICIPANTS, 5, "mmx-standalone", "hetzner", "1vcpu-1gb", "participants")), "other-runs");
        List<StepRow> steps = new ArrayList<>();
        List<StepVerdict> verdicts = new ArrayList<>();
        steps(LOOPBACK_LIVEKIT, "viewers", new double[] {10, 20, 40, 50}, 50, steps, verdicts);
        steps(HETZNER_PARTICIPANTS, "participants", new double[] {20, 40, 60, 80}, 80, steps, verdicts);
        new StepRepository(ds).insertBatch(steps, "other-steps");
        new StepVerdictRepository(ds).insertBatch(verdicts, "other-verdicts");
        // what streams concluded from those verdicts: the last step before the failing one
        new RunConclusionRepository(ds).insertBatch(List.of(
                StoredConclusions.row(LOOPBACK_LIVEKIT, 40.0, 2, 50.0, 3, 4, null, List.of(), T0),
                StoredConclusions.row(HETZNER_PARTICIPANTS, 60.0, 2, 80.0, 3, 4, null, List.of(), T0)),
                "other-conclusions");
    }

    private static RunRow run(String id, int day, String sut, String provider, String tier, String loadExpression) {
        Instant start = T0.plusSeconds(86_400L * day);
        return new RunRow(id, start, sut, "1.0.0", null, provider, "local", "vm", tier, 1.0, 2L << 30, 1000.0,
                1000.0, "loadgen", Map.of(), List.of(), List.of(), loadExpression, "DECLARED", start.plusSeconds(3_600), "COMPLETED", null,
                1);
    }

    private static void steps(String runId, String variable, double[] xs, double failingX, List<StepRow> steps,
                              List<StepVerdict> verdicts) {
        for (int i = 0; i < xs.length; i++) {
            Map<String, Double> load = Map.of(variable, xs[i]);
            Instant start = T0.plusSeconds(120L * i);
            boolean pass = xs[i] < failingX;
            steps.add(new StepRow(runId, i, load, start, 0L, start.plusSeconds(120), 1));
            verdicts.add(StoredVerdicts.verdict(runId, i, load, xs[i], pass, pass ? null : "cpu.cores").build());
        }
    }
}
