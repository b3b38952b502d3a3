package dev.caplab.streams.step;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The plateaus kept for inference give the steps the full list of level reports gives, in any arrival order. */
class LevelChangesTest {

    @Test
    void plateausInferTheStepsOfEveryReportWhateverTheOrder() {
        Random random = new Random(29);
        for (int trial = 0; trial < 200; trial++) {
            List<LevelPoint> all = new ArrayList<>();
            long t = 0;
            double level = 10;
            for (int plateau = 0; plateau < 6; plateau++) {
                level = random.nextBoolean() ? level * 2 : level + 5;
                int reports = 1 + random.nextInt(40);
                for (int r = 0; r < reports; r++) {
                    t += 200_000 + random.nextInt(1_500_000);
                    all.add(new LevelPoint("users", t, level));
                }
            }
            long runEnd = t + 30_000_000L;
            List<StepWindow> expected = StepInference.infer(all, 5_000_000L, 2_000_000L, runEnd);
            List<LevelPoint> shuffled = new ArrayList<>(all);
            Collections.shuffle(shuffled, random);
            List<LevelPoint> kept = LevelChanges.of(shuffled, 100);
            assertThat(kept.size()).isLessThanOrEqualTo(12);
            assertThat(StepInference.infer(kept, 5_000_000L, 2_000_000L, runEnd)).as("trial " + trial)
                    .isEqualTo(expected);
        }
    }

    @Test
    void theLastStepEndsAfterTheSecondOfTheLastReportNotAtTheRunsEnd() {
        List<LevelPoint> reports = List.of(new LevelPoint("users", 1_500_000, 10), new LevelPoint("users", 40_700_000,
                10));
        List<StepWindow> steps = StepInference.infer(reports, 5_000_000L, 0, 100_000_000L);
        assertThat(steps).hasSize(1);
        assertThat(steps.getFirst().startMicros()).isEqualTo(1_000_000);
        assertThat(steps.getFirst().endMicros()).isEqualTo(41_000_000);
    }
}
