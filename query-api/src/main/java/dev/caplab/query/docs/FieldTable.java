package dev.caplab.query.docs;

import java.util.Map;

/** What each field of the run, step, aggregate, conclusion and lateness the API serves means, with its unit. */
final class FieldTable {

    private static final String X = "in the run's load expression (x)";

    static final Map<String, String> RUN = Map.ofEntries(
            Map.entry("runId", "the run's id, unique"),
            Map.entry("startedAt", "when the run started, ISO-8601 UTC"),
            Map.entry("endedAt", "when the run ended, ISO-8601 UTC; null while RUNNING"),
            Map.entry("status", "RUNNING until the run ends, then how it ended"),
            Map.entry("sutName", "the system under test"),
            Map.entry("sutVersion", "the version of the system under test"),
            Map.entry("provider", "the cloud or hosting provider, e.g. hetzner"),
            Map.entry("region", "the provider's region"),
            Map.entry("instanceType", "the provider's instance type, e.g. cx22"),
            Map.entry("tier", "the size class tested, e.g. 2vcpu-4gb"),
            Map.entry("vcpu", "virtual CPUs of the machine under test, cores"),
            Map.entry("memoryBytes", "memory of the machine under test, bytes"),
            Map.entry("nominalEgressMbps", "egress bandwidth the provider advertises, Mbit/s"),
            Map.entry("measuredEgressMbps", "egress bandwidth measured (iperf3 or declared as measured), Mbit/s"),
            Map.entry("egressCeilingMbps", "the egress ceiling planned with: measured when known, else nominal, Mbit/s"),
            Map.entry("tool", "the load tool, e.g. k6, locust, jmeter"),
            Map.entry("loadExpression", "how the load x is computed from the step's load dimensions, e.g. users"),
            Map.entry("labels", "free key=value labels of the run"),
            Map.entry("origin", "DECLARED when a client started the run, INFERRED when its first samples did"),
            Map.entry("maxStableX", "highest load of a passing step, " + X + "; null until a step closed"),
            Map.entry("failedX", "load of the first failing step, " + X + "; null when none failed"),
            Map.entry("bottleneck", "the resource that runs out first, metric@source; null when none is named"));

    static final Map<String, String> STEP = Map.ofEntries(
            Map.entry("runId", "the run's id"),
            Map.entry("stepIndex", "the step's position in the run, from 0"),
            Map.entry("load", "the step's load dimensions, name to value (e.g. users=40)"),
            Map.entry("x", "the step's load, " + X),
            Map.entry("startedAt", "when the step started, ISO-8601 UTC"),
            Map.entry("endedAt", "when the step ended, ISO-8601 UTC"),
            Map.entry("warmupMillis", "the step's warm-up left out of its statistics, milliseconds"),
            Map.entry("passed", "whether every SLO rule held; null without a verdict yet or when not judged"),
            Map.entry("status", "what the step says about the system: pass, fail, not judged (no SLO rule), "
                    + "contaminated (another process disturbed it: neither pass nor fail) or pending (no verdict yet)"),
            Map.entry("contaminated", "whether another process disturbed the step: it says nothing of the system"),
            Map.entry("contaminationReason", "what disturbed the step; null when nothing did"),
            Map.entry("bottleneck", "the resource at or past its planning margin in this step, metric@source"),
            Map.entry("failedRules", "the SLO rules the step broke, with the observed values"),
            Map.entry("lateSamples", "samples that reached the step after it first closed, count"),
            Map.entry("amended", "whether late samples amended the step: lateSamples > 0"),
            Map.entry("judged", "false when no SLO rule judged the step (the run has none): passed is then null"));

    static final Map<String, String> AGGREGATE = Map.ofEntries(
            Map.entry("runId", "the run's id"),
            Map.entry("stepIndex", "the step, from 0; -1 for the baseline before the first step"),
            Map.entry("x", "the step's load, " + X + "; null for the baseline"),
            Map.entry("source", "where the samples came from (host, container, process group, tool)"),
            Map.entry("metric", "the metric; its unit is in its name (cpu.cores: cores, mem.bytes: bytes, "
                    + "*.ms: milliseconds, *.mbps: Mbit/s, *.percent: percent)"),
            Map.entry("kind", "GAUGE (a level), COUNTER (a running total: statistics are of its rate per second) "
                    + "or SUMMARY"),
            Map.entry("count", "samples in the step, warm-up included, count"),
            Map.entry("warmupCount", "samples in the warm-up, left out of the statistics, count"),
            Map.entry("sustained", "the steady-state median after warm-up, in the metric's unit (per second for "
                    + "counters)"),
            Map.entry("peak", "the highest value after warm-up, in the metric's unit; not the sustained value"),
            Map.entry("mean", "the mean after warm-up, in the metric's unit"),
            Map.entry("min", "the lowest value after warm-up, in the metric's unit"),
            Map.entry("max", "the highest value after warm-up, in the metric's unit"),
            Map.entry("p50", "the median, in the metric's unit"),
            Map.entry("p90", "the 90th percentile, in the metric's unit"),
            Map.entry("p95", "the 95th percentile, in the metric's unit"),
            Map.entry("p99", "the 99th percentile, in the metric's unit"),
            Map.entry("ratePerSecond", "a counter's increase per second over the steady part, its unit per second"),
            Map.entry("baselineDelta", "sustained minus the run's pre-test baseline, in the metric's unit"),
            Map.entry("contaminated", "whether another process disturbed the step"),
            Map.entry("windowStart", "start of the window the statistics cover, ISO-8601 UTC"),
            Map.entry("windowEnd", "end of the window the statistics cover, ISO-8601 UTC"),
            Map.entry("lateSamples", "samples that reached the step after it first closed, count"),
            Map.entry("resource", "whether the metric is a reading of a resource of a host, cgroup or container (CPU,"
                    + " memory, swap, network, disk, processes) rather than the load tool's"));

    static final Map<String, String> CONCLUSION = Map.ofEntries(
            Map.entry("maxStableX", "highest load of a passing step, " + X + "; null when none passed or none "
                    + "was judged"),
            Map.entry("maxStableStepIndex", "the step of maxStableX"),
            Map.entry("firstFailingX", "load of the first failing step, " + X + "; null when none failed"),
            Map.entry("firstFailingStepIndex", "the step of firstFailingX"),
            Map.entry("stepsJudged", "steps with a verdict, count"),
            Map.entry("stepsSkipped", "contaminated or unjudged steps left out, count"),
            Map.entry("bottleneck", "the resource that runs out first and the rule that named it"),
            Map.entry("margin", "the planning margin: the share (0–1) of each ceiling a resource may use"),
            Map.entry("resources", "each fitted resource's capacity estimate"),
            Map.entry("runClosed", "whether the run had ended when this was concluded"),
            Map.entry("model", "the name and version of the rules that concluded"),
            Map.entry("concludedAt", "when this conclusion was made, ISO-8601 UTC"),
            Map.entry("version", "the conclusion's revision: a later one replaces it"),
            Map.entry("warnings", "what a reader must know first (no load metric, samples after the end…)"),
            Map.entry("rulesFrom", "where the SLO rules came from: the run's own, the default ones, or none"),
            Map.entry("stableLoadNote", "why maxStableX is absent, or that default rules gave it; null otherwise"));

    static final Map<String, String> BOTTLENECK = Map.ofEntries(
            Map.entry("source", "the source of the limiting resource"),
            Map.entry("metric", "the limiting resource's metric"),
            Map.entry("rule", "how it was named: SMALLEST_SAFE_CAPACITY, the fitted line reaching the margin at the "
                    + "smallest load; FIRST_STEP_OVER_MARGIN, the first step whose use reached the margin"),
            Map.entry("value", "SMALLEST_SAFE_CAPACITY: the safe load, " + X + "; FIRST_STEP_OVER_MARGIN: use / "
                    + "ceiling in that step, a share (0–1)"),
            Map.entry("stepIndex", "the step that named it (FIRST_STEP_OVER_MARGIN only)"),
            Map.entry("role", "what the source is to the test: sut or host"));

    static final Map<String, String> LATENESS = Map.ofEntries(
            Map.entry("lateSamples", "samples that reached a step after it first closed; each amended that step"),
            Map.entry("beyondLatenessSamples", "samples that came after the allowed lateness: stored raw, in no "
                    + "aggregate or fit"));

    static final Map<String, String> ESTIMATE = Map.ofEntries(
            Map.entry("source", "the resource's source"),
            Map.entry("metric", "the resource's metric; values below are in its unit"),
            Map.entry("intercept", "the pre-knee line's value at x = 0, in the metric's unit"),
            Map.entry("slope", "the pre-knee line's increase per unit of x, in the metric's unit"),
            Map.entry("interceptVariance", "variance of the intercept, the metric's unit squared"),
            Map.entry("slopeVariance", "variance of the slope, (the metric's unit per x) squared"),
            Map.entry("covariance", "covariance of intercept and slope"),
            Map.entry("residualStdErr", "standard error of the residuals, in the metric's unit"),
            Map.entry("degreesOfFreedom", "the line's residual degrees of freedom"),
            Map.entry("preKneeSteps", "steps the line was fitted on, count"),
            Map.entry("rSquared", "the line's R², 0–1"),
            Map.entry("fromX", "lowest load the line was fitted on, " + X),
            Map.entry("toX", "highest load the line was fitted on, " + X),
            Map.entry("ceiling", "the resource's ceiling C, in the metric's unit"),
            Map.entry("safeCapacityX", "load where the line reaches C·margin, " + X + "; beyond the run's testedToX"
                    + " (the highest load it tested) the line is extrapolated"),
            Map.entry("safeCapacityStdErr", "standard error of safeCapacityX, " + X),
            Map.entry("safeCapacityLower95", "lower end of safeCapacityX's 95 % interval, " + X),
            Map.entry("safeCapacityUpper95", "upper end of safeCapacityX's 95 % interval, " + X),
            Map.entry("cappedByCliff", "whether a cliff capped safeCapacityX at the last stable step"),
            Map.entry("kneeX", "where the resource's growth bends, " + X + "; null when no knee stands"),
            Map.entry("cliff", "whether the resource fell off a cliff (a sudden break)"),
            Map.entry("cliffStepIndex", "the step of the cliff"),
            Map.entry("lastStableX", "the last load before the cliff, " + X),
            Map.entry("role", "what the source is to the test: sut or host"));

    static final Map<String, String> FIT = Map.ofEntries(
            Map.entry("runId", "the run's id"),
            Map.entry("source", "where the fitted series came from; caplab:throughput for the request rate"),
            Map.entry("metric", "the fitted metric; its unit is in its name, and values below are in it"),
            Map.entry("model", "the model chosen: linear, segmented-1 or segmented-2 (breakpoints)"),
            Map.entry("modelVersion", "the version of the fitting that made the fit"),
            Map.entry("loadExpression", "how the load x is computed from the step's load dimensions, e.g. users"),
            Map.entry("stepsUsed", "steps the fit was made from, count"),
            Map.entry("baseline", "the first (below-knee) segment's value at x = 0, in the metric's unit"),
            Map.entry("slopePerX", "the first (below-knee) segment's increase per unit of x, in the metric's unit"),
            Map.entry("kneeX", "the first breakpoint, " + X + "; null when the model has none"),
            Map.entry("kneeLower95", "lower end of kneeX's 95 % interval, " + X),
            Map.entry("kneeUpper95", "upper end of kneeX's 95 % interval, " + X),
            Map.entry("breakpointPValue", "Davies' test p-value that a breakpoint exists; null when untested"),
            Map.entry("rSquared", "the model's R², 0–1"),
            Map.entry("cliff", "whether the series fell off a cliff (a sudden break)"),
            Map.entry("cliffStepIndex", "the step of the cliff; null when none"),
            Map.entry("capacity", "the node's ceiling C for this resource, in the metric's unit; null when unknown"),
            Map.entry("margin", "the planning margin, the fraction of C planned with, (0, 1]"),
            Map.entry("safeCapacityX", "load where the line below the knee or cliff reaches C·margin, " + X
                    + "; null without a ceiling"),
            Map.entry("bottleneck", "whether this resource is the run's bottleneck"),
            Map.entry("fittedAt", "when the fit was made, ISO-8601 UTC"),
            Map.entry("segments", "the model's linear pieces y = intercept + slope·x on [fromX, toX]"),
            Map.entry("breakpoints", "the model's breakpoints, each with its standard error and 95 % interval, " + X),
            Map.entry("role", "what the source is to the test: sut or host; null for the request rate and on fits "
                    + "stored before roles were decided"),
            Map.entry("throughputFit", "true for the request rate's fit (its knee is the throughput limit), false "
                    + "for a resource's"));

    private FieldTable() {
    }
}
