package dev.caplab.streams.step;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Infers steps from a load-level metric when a run has no step events: each plateau of a constant, positive level
 * held at least {@code minStepMicros} is a step; shorter plateaus are ramps (their samples stay unassigned).
 * A plateau ends where the next level begins; the last one ends at {@code runEndMicros} (or stays open).
 */
public final class StepInference {

    private StepInference() {
    }

    public static List<StepWindow> infer(List<LevelPoint> points, long minStepMicros,
            long warmupMicros, long runEndMicros) {
        List<LevelPoint> sorted = new ArrayList<>(points);
        sorted.sort(Comparator.comparingLong(LevelPoint::timestampMicros));
        List<StepWindow> steps = new ArrayList<>();
        int i = 0;
        while (i < sorted.size()) {
            double level = sorted.get(i).level();
            long start = sorted.get(i).timestampMicros();
            int j = i;
            while (j < sorted.size() && sorted.get(j).level() == level) {
                j++;
            }
            long end = Math.min(j < sorted.size() ? sorted.get(j).timestampMicros() : StepWindow.OPEN, runEndMicros);
            boolean longEnough = end == StepWindow.OPEN || end - start >= minStepMicros;
            if (start >= runEndMicros) {
                break; // level points after the run ended start no step
            }
            if (level > 0 && longEnough && end > start) {
                steps.add(new StepWindow(steps.size(), Map.of(sorted.get(i).metric(), level), start, end, warmupMicros, true));
            }
            i = j;
        }
        return steps;
    }
}
