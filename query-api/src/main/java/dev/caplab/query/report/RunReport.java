package dev.caplab.query.report;

import dev.caplab.query.endpoints.RunEndpoints;
import dev.caplab.query.plan.Plan;
import dev.caplab.query.runs.RunDetail;
import dev.caplab.store.row.RunRow;
import dev.caplab.query.throughput.RunThroughput;
import dev.caplab.query.throughput.ThroughputService;
import dev.caplab.schema.event.SloRule;
import java.util.List;
import java.util.Objects;

/**
 * Everything a report shows of one run: its detail (environment, steps and verdicts, fits, alerts, lateness), what
 * each step used of every fitted resource, its throughput and latency per step with the throughput limit
 * ({@link ThroughputService#of}, as the page and the API show them), and the capacity plan of a profile
 * at {@code planLoad} (the run's max stable load, else 0) on the run's own tier, the SLO rules the run declared,
 * its per-endpoint and error tables ({@link dev.caplab.query.endpoints.EndpointService#of}), and in how many steps
 * any resource was read ({@code resourceSteps}, {@link dev.caplab.schema.vocabulary.MetricNames#resource}): none
 * means the run holds only the load tool's readings, and no capacity plan can be made of it.
 */
public record RunReport(RunDetail detail, List<FittedResource> resources, RunThroughput throughput, Plan plan,
                        double planLoad, List<SloRule> rules, RunEndpoints endpoints, int resourceSteps) {

    public RunReport {
        resources = List.copyOf(resources);
        rules = List.copyOf(rules);
        Objects.requireNonNull(throughput, "throughput");
        Objects.requireNonNull(endpoints, "endpoints");
        if (resourceSteps < 0) {
            throw new IllegalArgumentException("run " + detail.run().run().runId() + ": resourceSteps " + resourceSteps
                    + " < 0");
        }
    }

    /** A run whose resources were read in the steps its fitted resources show. */
    public RunReport(RunDetail detail, List<FittedResource> resources, RunThroughput throughput, Plan plan,
                     double planLoad, List<SloRule> rules, RunEndpoints endpoints) {
        this(detail, resources, throughput, plan, planLoad, rules, endpoints, (int) resources.stream()
                .flatMap(r -> r.points().stream()).mapToInt(FittedResource.Point::stepIndex).distinct().count());
    }

    /** A run without per-endpoint rows. */
    public RunReport(RunDetail detail, List<FittedResource> resources, RunThroughput throughput, Plan plan,
                     double planLoad, List<SloRule> rules) {
        this(detail, resources, throughput, plan, planLoad, rules, new RunEndpoints(detail.run().run().runId(), List.of(),
                List.of(), List.of()));
    }

    /** A run that declared no SLO rules of its own. */
    public RunReport(RunDetail detail, List<FittedResource> resources, RunThroughput throughput, Plan plan,
                     double planLoad) {
        this(detail, resources, throughput, plan, planLoad, List.of());
    }

    /** Whether no step of the run holds a reading of any resource: only the load tool's readings. */
    public boolean noResourceRead() {
        return resourceSteps == 0 && resources.isEmpty();
    }

    /** The stored run this report is of. */
    public RunRow run() {
        return detail.run().run();
    }

    public String runId() {
        return run().runId();
    }
}
