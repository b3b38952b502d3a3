package dev.caplab.analysis.bottleneck;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * "CPU and egress on one chart" (EP19 §2.2): walk the steps in order and report which resource reached
 * its ceiling first, so a bandwidth-bound run is not mistaken for a CPU-bound one. When several cross at
 * the same step, the one furthest past its threshold (utilisation / threshold) is named.
 */
public final class BottleneckAttribution {
    private BottleneckAttribution() {
    }

    /** Utilisation uᵣ = usageᵣ / ceilingᵣ per step; resource r is saturated when uᵣ ≥ thresholdᵣ. */
    public static BottleneckReport attribute(List<StepUsage> steps, List<ResourceCeiling> ceilings) {
        List<StepSaturation> out = new ArrayList<>(steps.size());
        FirstHit first = null;
        for (StepUsage step : steps.stream().sorted(Comparator.comparingInt(StepUsage::stepIndex)).toList()) {
            Map<String, Double> util = new LinkedHashMap<>();
            List<String> saturated = new ArrayList<>();
            ResourceCeiling worst = null;
            double worstRatio = 0;
            for (ResourceCeiling c : ceilings) {
                Double used = step.usage().get(c.resource());
                if (used == null) {
                    continue;
                }
                double u = used / c.ceiling();
                util.put(c.resource(), u);
                if (u >= c.threshold()) {
                    saturated.add(c.resource());
                    if (u / c.threshold() > worstRatio) {
                        worstRatio = u / c.threshold();
                        worst = c;
                    }
                }
            }
            if (first == null && worst != null) {
                first = new FirstHit(worst.resource(), worst.kind(), step.stepIndex(), step.load(),
                        util.get(worst.resource()));
            }
            out.add(new StepSaturation(step.stepIndex(), step.load(), util, saturated));
        }
        return new BottleneckReport(BottleneckReport.MODEL_NAME, BottleneckReport.MODEL_VERSION, out,
                Optional.ofNullable(first));
    }
}
