package dev.caplab.query.report;

import dev.caplab.query.plan.Plan;
import dev.caplab.query.runs.RunDetail;
import java.util.List;

/**
 * Everything a report shows of one run: its detail (environment, steps and verdicts, fits, alerts, lateness), what
 * each step used of every fitted resource, its throughput and latency per step, and the capacity plan of a profile
 * at {@code planLoad} (the run's max stable load, else 0) on the run's own tier.
 */
public record RunReport(RunDetail detail, List<ResourceUse> resources, List<StepTraffic> traffic, Plan plan,
                        double planLoad) {

    public RunReport {
        resources = List.copyOf(resources);
        traffic = List.copyOf(traffic);
    }

    public String runId() {
        return detail.run().runId();
    }
}
