package dev.caplab.query.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.caplab.query.testing.FakeStore;
import dev.caplab.query.testing.SliceTestConfiguration;
import dev.caplab.query.testing.Tokens;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.test.web.servlet.MockMvc;

@WebMvcTest
@Import(SliceTestConfiguration.class)
class RunControllerTest {

    @Autowired
    MockMvc mvc;
    @Autowired
    FakeStore store;

    @Test
    void listsRunsAsJsonWithFiltersBound() throws Exception {
        mvc.perform(get("/api/v1/runs").param("provider", "lightnode").param("label", "episode=ep19")
                        .param("limit", "10").header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[0].runId").value("ln-1vcpu"))
                .andExpect(jsonPath("$[0].measuredEgressMbps").value(100.0))
                .andExpect(jsonPath("$[0].egressCeilingMbps").value(100.0));
        assertThat(store.lastFilter.labels()).containsEntry("episode", "ep19");
        assertThat(store.lastFilter.limit()).isEqualTo(10);
    }

    @Test
    void listsRunsAsCsvByParameterAndByAcceptHeader() throws Exception {
        String byParam = mvc.perform(get("/api/v1/runs").param("format", "csv")
                        .header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith("text/csv"))
                .andReturn().getResponse().getContentAsString();
        assertThat(byParam.lines().findFirst().orElseThrow()).startsWith("runId,startedAt,endedAt,status,sutName");
        assertThat(byParam).contains("ln-1vcpu,2026-07-28T10:00:00Z").contains("\"{\"\"episode\"\":\"\"ep19\"\"");
        mvc.perform(get("/api/v1/runs/ln-1vcpu/steps").accept("text/csv")
                        .header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isOk())
                .andExpect(content().string(org.hamcrest.Matchers.containsString("dropped-frames (observed 42.0)")));
    }

    @Test
    void runDetailCarriesMaxStableLoadAndBottleneck() throws Exception {
        mvc.perform(get("/api/v1/runs/ln-1vcpu").header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.maxStableX").value(18.0))
                .andExpect(jsonPath("$.failedX").value(19.0))
                .andExpect(jsonPath("$.conclusion.bottleneck.metric").value("cpu.cores"))
                .andExpect(jsonPath("$.conclusion.bottleneck.rule").value("SMALLEST_SAFE_CAPACITY"))
                .andExpect(jsonPath("$.conclusion.resources[0].safeCapacityX").value(18.0))
                .andExpect(jsonPath("$.steps.length()").value(5))
                .andExpect(jsonPath("$.fits[0].kneeX").value(18.0))
                .andExpect(jsonPath("$.fits[0].segments[0].slope").value(0.022));
    }

    @Test
    void unknownRunIsProblemDetail404() throws Exception {
        mvc.perform(get("/api/v1/runs/nope").header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isNotFound())
                .andExpect(content().contentTypeCompatibleWith("application/problem+json"))
                .andExpect(jsonPath("$.type").value("https://caplab.dev/problems/not-found"))
                .andExpect(jsonPath("$.detail").value("no run with id 'nope'"));
        mvc.perform(get("/api/v1/runs/nope/fits").header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isNotFound());
    }

    @Test
    void badParametersAreProblemDetail400NamingTheParameter() throws Exception {
        mvc.perform(get("/api/v1/runs").param("limit", "100000").header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.parameter").value("limit"));
        mvc.perform(get("/api/v1/runs").param("from", "yesterday").header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.parameter").value("from"));
        mvc.perform(get("/api/v1/runs").param("label", "noequals").header(HttpHeaders.AUTHORIZATION, Tokens.READ))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value("parameter 'label' = 'noequals': expected key=value"));
    }

    @Test
    void missingOrUnknownTokenIs401AndWriteOnlyTokenIs403() throws Exception {
        mvc.perform(get("/api/v1/runs"))
                .andExpect(status().isUnauthorized())
                .andExpect(header().string(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"caplab\""))
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.startsWith(
                        "missing token: send 'Authorization: Bearer <token>'")));
        mvc.perform(get("/api/v1/runs").header(HttpHeaders.AUTHORIZATION, "Bearer not-a-known-token-at-all"))
                .andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.detail").value("unknown token"));
        mvc.perform(get("/api/v1/runs/ln-1vcpu/aggregates").header(HttpHeaders.AUTHORIZATION, Tokens.WRITE_ONLY))
                .andExpect(status().isForbidden())
                .andExpect(jsonPath("$.detail").value("token 'loadgen' lacks the 'read' scope"));
    }
}
