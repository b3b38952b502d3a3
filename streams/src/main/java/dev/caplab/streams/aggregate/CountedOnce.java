package dev.caplab.streams.aggregate;

import dev.caplab.analysis.throughput.TrafficMetrics;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Partials counted once: per source and metric, the series {@link TrafficMetrics#countedOnce} keeps (a tool's total
 * row when it wrote one, else every series), so a tool's total and its per-endpoint rows never add up together.
 * Order of the input is kept.
 */
final class CountedOnce {

    private CountedOnce() {
    }

    static List<Partial> select(List<Partial> partials) {
        Map<String, Map<Map<String, String>, Boolean>> labelSets = new LinkedHashMap<>();
        for (Partial p : partials) {
            labelSets.computeIfAbsent(p.source() + '\u0000' + p.metric(), k -> new LinkedHashMap<>())
                    .put(p.labels(), Boolean.TRUE);
        }
        Map<String, Set<Map<String, String>>> kept = new LinkedHashMap<>();
        boolean any = false;
        for (Map.Entry<String, Map<Map<String, String>, Boolean>> e : labelSets.entrySet()) {
            List<Map<String, String>> all = new ArrayList<>(e.getValue().keySet());
            String metric = e.getKey().substring(e.getKey().indexOf('\u0000') + 1);
            List<Map<String, String>> counted = TrafficMetrics.countedOnce(metric, all);
            any |= counted.size() != all.size();
            kept.put(e.getKey(), new HashSet<>(counted));
        }
        if (!any) {
            return partials;
        }
        return partials.stream()
                .filter(p -> kept.get(p.source() + '\u0000' + p.metric()).contains(p.labels())).toList();
    }
}
