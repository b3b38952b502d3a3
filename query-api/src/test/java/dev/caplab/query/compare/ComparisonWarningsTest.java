package dev.caplab.query.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a comparison warns about a run's egress, in words a reader can act on: one warning per cause. */
class ComparisonWarningsTest {

    private static ComparisonRow run(String id, Double nominalMbps, Double measuredMbps) {
        return new ComparisonRow("small", id, "shop", "hetzner", null, "small", null, 2.0, null, nominalMbps,
                measuredMbps, "users", 40.0, null, null, null, null, null, false, null, null, null, null, 50.0);
    }

    @Test
    void aRunWithoutAnyEgressFigureIsToldSoNotGivenANullNominal() {
        List<String> warnings = ComparisonWarnings.within(List.of(run("bare", null, null),
                run("nominal", 1000.0, null), run("measured", 1000.0, 412.0)));

        assertThat(warnings).contains(
                "1 of 3 runs (bare) has no measured egress nor a nominal one: egress cannot be planned until it is"
                        + " measured (iperf3)",
                "1 of 3 runs (nominal) has no measured egress, only a nominal one (1000 Mbps), which may be far"
                        + " above what the provider delivers; measure it (iperf3) before planning");
        assertThat(warnings).noneMatch(w -> w.contains("null")).noneMatch(w -> w.contains("measured,"));
    }

    @Test
    void fiftyRunsGetOneWarningPerCauseWithTheirCount() {
        // run i: measured when i % 5 == 0, nominal only when i % 5 is 1 or 2 (500 Mbps odd, 1000 even), else nothing
        List<ComparisonRow> rows = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            String id = String.format("run-%02d", i);
            rows.add(switch (i % 5) {
                case 0 -> run(id, 1000.0, 400.0);
                case 1, 2 -> run(id, i % 2 == 0 ? 1000.0 : 500.0, null);
                default -> run(id, null, null);
            });
        }

        List<String> warnings = ComparisonWarnings.within(rows);

        // 2 of every 5 runs in each cause: 20 of 50; the first five of the bare ones are 3, 4, 8, 9, 13 (15 more),
        // of the nominal ones 1, 2, 6, 7, 11 (15 more)
        assertThat(warnings).filteredOn(w -> w.contains("egress")).containsExactly(
                "20 of 50 runs (run-03, run-04, run-08, run-09, run-13 and 15 more) have no measured egress nor a"
                        + " nominal one: egress cannot be planned until it is measured (iperf3)",
                "20 of 50 runs (run-01, run-02, run-06, run-07, run-11 and 15 more) have no measured egress, only a"
                        + " nominal one (500 Mbps, 1000 Mbps), which may be far above what the provider delivers;"
                        + " measure it (iperf3) before planning");
    }

    @Test
    void runsThatAllMeasuredEgressGetNoEgressWarning() {
        assertThat(ComparisonWarnings.within(List.of(run("a", 1000.0, 412.0), run("b", null, 90.0))))
                .noneMatch(w -> w.contains("egress"));
    }
}
