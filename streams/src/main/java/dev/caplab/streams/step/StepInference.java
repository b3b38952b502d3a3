package dev.caplab.streams.step;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Infers steps from a load-level metric when a run has no step events: each plateau of a constant, positive level
 * held at least {@code minStepMicros} is a step; shorter plateaus are ramps (their samples stay unassigned).
 *
 * <p>Bounds are whole seconds of the per-second partials ({@link SampleKeys#bucketOf}): a plateau starts at the
 * second its first report falls in, so traffic at the instant of a level change belongs to the new step, and ends
 * where the next plateau starts. The last plateau, once the run ended, ends after the second of the tool's last
 * report of that level (never later than the run's end): what the host reports after the tool stopped is idle time,
 * not load. While the run goes on it stays open.
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
            long start = SampleKeys.bucketOf(sorted.get(i).timestampMicros());
            int j = i;
            while (j < sorted.size() && sorted.get(j).level() == level) {
                j++;
            }
            long end;
            if (j < sorted.size()) {
                end = Math.min(SampleKeys.bucketOf(sorted.get(j).timestampMicros()), runEndMicros);
            } else if (runEndMicros == StepWindow.OPEN) {
                end = StepWindow.OPEN;
            } else {
                long lastReport = sorted.get(j - 1).timestampMicros();
                end = j - 1 > i ? Math.min(SampleKeys.bucketOf(lastReport) + SampleKeys.BUCKET_MICROS, runEndMicros)
                        : runEndMicros; // one report only (or state kept before last reports were): the run's end
            }
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
