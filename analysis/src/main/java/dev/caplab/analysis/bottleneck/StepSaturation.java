package dev.caplab.analysis.bottleneck;

import java.util.List;
import java.util.Map;

/** Per step: utilisation of every resource (usage / ceiling) and the resources at or past their threshold. */
public record StepSaturation(int stepIndex, double load, Map<String, Double> utilisation, List<String> saturated) {
    public StepSaturation {
        utilisation = Map.copyOf(utilisation);
        saturated = List.copyOf(saturated);
    }
}
