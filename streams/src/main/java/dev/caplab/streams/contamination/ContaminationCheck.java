package dev.caplab.streams.contamination;

import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.aggregate.Partial;
import dev.caplab.streams.aggregate.Distribution;
import dev.caplab.streams.aggregate.Series;
import dev.caplab.streams.aggregate.TimedValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Flags a step whose CPU outside the system under test (seeds/000: an LLM container took up to 8.6 cores during the
 * first 20×20 run) stays above the threshold: the sustained aligned sum, after warm-up, of the rule's samples.
 */
public final class ContaminationCheck {

    private ContaminationCheck() {
    }

    public static Contamination check(List<Partial> stepPartials, long steadyFromMicros,
            TopologySettings settings) {
        ContaminationRule rule = settings.contamination();
        Map<String, List<TimedValue>> outside = new TreeMap<>();
        TreeSet<String> sources = new TreeSet<>();
        for (Partial p : stepPartials) {
            if (p.metric().equals(rule.metric()) && rule.labelValue().equals(p.labels().get(rule.labelKey()))
                    && p.bucketMicros() >= steadyFromMicros) {
                outside.computeIfAbsent(p.seriesKey(), k -> new ArrayList<>())
                        .add(new TimedValue(p.bucketMicros(), p.mean()));
                sources.add(p.source());
            }
        }
        outside.values().forEach(v -> v.sort(java.util.Comparator.comparingLong(TimedValue::timestampMicros)));
        if (outside.isEmpty()) {
            return Contamination.CLEAN;
        }
        double sustained = Distribution.median(Series.values(Series.alignedSum(outside, settings.bucketMicros())));
        if (sustained <= rule.thresholdCores()) {
            return Contamination.CLEAN;
        }
        return new Contamination(true, java.util.Optional.of(String.format(java.util.Locale.ROOT,
                "%s outside the system under test (%s=%s: %s) sustained %.2f > threshold %.2f", rule.metric(),
                rule.labelKey(), rule.labelValue(), String.join(",", sources), sustained, rule.thresholdCores())));
    }
}
