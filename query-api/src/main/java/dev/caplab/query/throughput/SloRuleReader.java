package dev.caplab.query.throughput;

import java.util.List;
import java.util.Map;

/** Reads the SLO rules a run declared (as stored, one map per rule: name, metric, statistic, comparator, threshold). */
public interface SloRuleReader {

    /** The run's rules; empty when it declared none or is unknown. */
    List<Map<String, Object>> rules(String runId);
}
