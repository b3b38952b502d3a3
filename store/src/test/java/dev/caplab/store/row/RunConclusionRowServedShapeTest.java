package dev.caplab.store.row;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the API serves of a stored conclusion beyond its columns: the bottleneck object, the warnings, the note. */
class RunConclusionRowServedShapeTest {

    private static final Instant AT = Instant.parse("2026-07-28T11:00:00Z");

    @Test
    void theBottleneckTakesTheRoleOfItsOwnEstimateBeforeAnotherOfItsSource() {
        ResourceEstimateValue memory = estimate("node", "mem.bytes", "host");
        ResourceEstimateValue cpu = estimate("node", "cpu.cores", "sut");
        RunConclusionRow row = conclusion("node", "cpu.cores", List.of(memory, cpu), "[]", "run");
        assertThat(row.bottleneck()).isEqualTo(new RunConclusionRow.Bottleneck("node", "cpu.cores",
                "FIRST_STEP_OVER_MARGIN", 0.7, 3, "sut"));
        assertThat(row.bottleneckEstimate()).contains(cpu);
        // a step's resource that was not fitted: its source's other estimate gives the role
        RunConclusionRow unfitted = conclusion("node", "net.tx.bytes", List.of(memory, cpu), "[]", "run");
        assertThat(unfitted.bottleneck().role()).isEqualTo("host");
        assertThat(unfitted.bottleneckEstimate()).isEmpty();
        assertThat(conclusion("other", "cpu.cores", List.of(cpu), "[]", "run").bottleneck().role()).isNull();
    }

    @Test
    void noBottleneckColumnsServeNoBottleneck() {
        RunConclusionRow row = conclusion(null, null, List.of(), "[]", "run");
        assertThat(row.bottleneck()).isNull();
        assertThat(row.bottleneckEstimate()).isEmpty();
    }

    @Test
    void theWarningsAreTheStoredJsonArrayInItsOrder() {
        String json = "[{\"kind\":\"NO_LOAD_METRIC\",\"message\":\"send <vus>\"},"
                + "{\"kind\":\"SAMPLES_AFTER_END\",\"message\":\"3 samples\"}]";
        assertThat(conclusion(null, null, List.of(), json, "run").warnings()).containsExactly(
                new RunConclusionRow.Warning("NO_LOAD_METRIC", "send <vus>"),
                new RunConclusionRow.Warning("SAMPLES_AFTER_END", "3 samples"));
        assertThat(conclusion(null, null, List.of(), "[]", "run").warnings()).isEmpty();
    }

    @Test
    void theNoteSaysWhyNoRulesOrTheDefaultOnesJudged() {
        assertThat(conclusion(null, null, List.of(), "[]", "none").stableLoadNote())
                .isEqualTo(RunConclusionRow.NOT_JUDGED).contains("no SLO rules");
        assertThat(conclusion(null, null, List.of(), "[]", "default").stableLoadNote())
                .isEqualTo(RunConclusionRow.DEFAULT_RULES).contains("default SLO rules");
        assertThat(conclusion(null, null, List.of(), "[]", "run").stableLoadNote()).isNull();
        assertThat(conclusion(null, null, List.of(), "[]", null).stableLoadNote()).isNull();
    }

    private static RunConclusionRow conclusion(String source, String metric, List<ResourceEstimateValue> resources,
            String warningsJson, String rulesFrom) {
        return new RunConclusionRow("r", 10.0, 2, 12.0, 3, 4, 0, source, metric,
                metric == null ? null : "FIRST_STEP_OVER_MARGIN", metric == null ? null : 0.7,
                metric == null ? null : 3, 0.6, resources, true, "caplab-run-conclusion/1", AT, 1, warningsJson,
                rulesFrom);
    }

    private static ResourceEstimateValue estimate(String source, String metric, String role) {
        return new ResourceEstimateValue(source, metric, 0.1, 0.05, null, null, null, null, 2, 4, null, 5, 20, 2.0,
                22.0, null, null, null, false, null, false, null, null, role);
    }
}
