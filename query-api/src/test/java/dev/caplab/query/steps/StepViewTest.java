package dev.caplab.query.steps;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.store.row.StepRow;
import dev.caplab.store.row.StepVerdictRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which steps a run has, from its stored steps and verdicts. */
class StepViewTest {

    private static final Instant T0 = Instant.parse("2026-11-02T09:00:00Z");

    private static StepVerdictRow verdict(String run, int index, double users) {
        return new StepVerdictRow(run, index, Map.of("vus", users), users, true, List.of(), false, null, null, 1);
    }

    @Test
    void aRunWithDeclaredStepsShowsThoseNotTheMoreNumerousOnesInferredBeforeTheDeclarationCame() {
        // Eight steps were inferred from k6's vus (verdicts 0-7); the controller then declared four.
        List<StepVerdictRow> verdicts = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            verdicts.add(verdict("declared-late", i, 10 * (i + 1)));
        }
        List<StepRow> declared = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Instant start = T0.plusSeconds(60L * i);
            declared.add(new StepRow("declared-late", i, Map.of("users", 20.0 * (i + 1)), start, 5_000_000L,
                    start.plusSeconds(60), 1));
        }
        // A run nobody declared steps for: its inferred steps are its steps.
        verdicts.add(verdict("inferred", 0, 10));
        verdicts.add(verdict("inferred", 1, 20));
        List<StepVerdictRow> late = verdicts.stream().filter(v -> v.runId().equals("declared-late")).toList();
        List<StepVerdictRow> inferred = verdicts.stream().filter(v -> v.runId().equals("inferred")).toList();

        assertThat(StepView.of("declared-late", declared, late)).extracting(StepView::stepIndex)
                .containsExactly(0, 1, 2, 3);
        assertThat(StepView.of("declared-late", declared, late).get(3).startedAt()).isEqualTo(T0.plusSeconds(180));
        assertThat(StepView.of("inferred", List.of(), inferred)).extracting(StepView::stepIndex)
                .containsExactly(0, 1);
    }
}
