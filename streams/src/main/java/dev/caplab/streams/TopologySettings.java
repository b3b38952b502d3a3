package dev.caplab.streams;

import dev.caplab.schema.vocabulary.Planning;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.aggregate.SustainedStatistic;
import dev.caplab.streams.contamination.ContaminationRule;
import dev.caplab.streams.run.RunLimits;
import dev.caplab.streams.verdict.DefaultRules;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Every semantic knob of the topology, pinned explicitly rather than left to defaults.
 *
 * <p>Emit strategy is fixed: a step's aggregate, verdict and fits are emitted when the step closes, i.e. when the
 * run's event time (its largest sample timestamp) reaches step end + {@code grace}, or when {@code grace} of
 * wall-clock time has passed since the step's end was seen (so the last step closes without later data); a later
 * sample or lifecycle event that changes a closed step emits it again at a higher version, at most once per run per
 * {@code punctuateInterval} (streams/README.md, "Late data amends").
 *
 * @param grace               how long (event time) a step waits for its samples before it is first emitted
 * @param punctuateInterval   the throttle of amendments (at most one per run per interval); open steps are checked
 *                            for closing on the wall clock at least this often, and at least every 200 ms
 * @param loadLevelMetrics    metrics whose level defines inferred steps when a run has no step events
 * @param minInferredStep     a load plateau shorter than this is ramp, not a step
 * @param inferredWarmup      warm-up assumed for inferred steps
 * @param resourceMetrics     metrics fitted against the load expression
 * @param groupLabels         label keys whose values define summed groups ({@code group:<key>=<value>})
 * @param bucket              time resolution at which series are aligned before summing
 * @param sustained           how the steady-state value is computed
 * @param trimFraction        fraction trimmed from each tail when {@code sustained} is a trimmed mean
 * @param contamination       when a step is contaminated by processes outside the system under test
 * @param fitMargin           planning margin of the capacity formula x_max = (C·margin − base)/slope
 * @param allowedLateness     how long (wall clock) after a run ended, or after its last input when it never ends,
 *                            late samples still amend it; then its partials are deleted and later samples are
 *                            counted beyond the allowed lateness
 * @param limits              what one run may reach (names, labels, level changes, state bytes)
 * @param runIdleEnd          how long (wall clock) a run nobody declared (no RunStarted, see
 *                            {@link dev.caplab.streams.run.InferredRuns}) may go without input before it is ended at
 *                            its last sample, which closes its last step
 * @param defaultRules        SLO rules for runs that bring none ({@code caplab up --default-slo}); without either a
 *                            run's steps are not judged
 */
public record TopologySettings(Duration grace, Duration punctuateInterval, List<String> loadLevelMetrics,
                               Duration minInferredStep, Duration inferredWarmup, List<String> resourceMetrics,
                               List<String> groupLabels, Duration bucket, SustainedStatistic sustained,
                               double trimFraction, ContaminationRule contamination, double fitMargin,
                               Duration allowedLateness, RunLimits limits, Duration runIdleEnd,
                               DefaultRules defaultRules) {

    /** How long a run nobody declared may stay without input before it is ended. */
    public static final Duration DEFAULT_RUN_IDLE_END = Duration.ofMinutes(2);

    public TopologySettings {
        requirePositive(grace, "grace", true);
        requirePositive(punctuateInterval, "punctuateInterval", false);
        loadLevelMetrics = List.copyOf(loadLevelMetrics);
        requirePositive(minInferredStep, "minInferredStep", false);
        requirePositive(inferredWarmup, "inferredWarmup", true);
        resourceMetrics = List.copyOf(resourceMetrics);
        groupLabels = List.copyOf(groupLabels);
        requirePositive(bucket, "bucket", false);
        Objects.requireNonNull(sustained, "sustained");
        if (!(trimFraction >= 0 && trimFraction < 0.5)) {
            throw new IllegalArgumentException("trimFraction must be in [0, 0.5), was " + trimFraction);
        }
        Objects.requireNonNull(contamination, "contamination");
        if (!(fitMargin > 0 && fitMargin <= 1)) {
            throw new IllegalArgumentException("fitMargin must be in (0, 1], was " + fitMargin);
        }
        requirePositive(allowedLateness, "allowedLateness", false);
        Objects.requireNonNull(limits, "limits");
        requirePositive(runIdleEnd, "runIdleEnd", false);
        Objects.requireNonNull(defaultRules, "defaultRules");
    }

    /**
     * 30 s grace, 1 s punctuation, k6 {@code vus} / Locust users inference, median sustained, 0.6 margin, state kept
     * 24 h after a run ended, {@link RunLimits#defaults()}, a run nobody declared ended after 2 minutes without input.
     */
    public static TopologySettings defaults() {
        return new TopologySettings(Duration.ofSeconds(30), Duration.ofSeconds(1),
                MetricNames.DEFAULT_LOAD_LEVELS, Duration.ofSeconds(20), Duration.ofSeconds(10),
                List.of(MetricNames.CPU_CORES, MetricNames.MEM_BYTES, MetricNames.NET_TX_BYTES, MetricNames.NET_RX_BYTES), List.of(),
                Duration.ofSeconds(1), SustainedStatistic.MEDIAN, 0.1, ContaminationRule.defaults(), Planning.DEFAULT_MARGIN,
                Duration.ofHours(24), RunLimits.defaults(), DEFAULT_RUN_IDLE_END, DefaultRules.NONE);
    }

    public TopologySettings withGrace(Duration g) {
        return new TopologySettings(g, punctuateInterval, loadLevelMetrics, minInferredStep, inferredWarmup,
                resourceMetrics, groupLabels, bucket, sustained, trimFraction, contamination, fitMargin,
                allowedLateness, limits, runIdleEnd, defaultRules);
    }

    public TopologySettings withGroupLabels(List<String> labels) {
        return new TopologySettings(grace, punctuateInterval, loadLevelMetrics, minInferredStep, inferredWarmup,
                resourceMetrics, labels, bucket, sustained, trimFraction, contamination, fitMargin,
                allowedLateness, limits, runIdleEnd, defaultRules);
    }

    public TopologySettings withContamination(ContaminationRule rule) {
        return new TopologySettings(grace, punctuateInterval, loadLevelMetrics, minInferredStep, inferredWarmup,
                resourceMetrics, groupLabels, bucket, sustained, trimFraction, rule, fitMargin,
                allowedLateness, limits, runIdleEnd, defaultRules);
    }

    public TopologySettings withAllowedLateness(Duration lateness) {
        return new TopologySettings(grace, punctuateInterval, loadLevelMetrics, minInferredStep, inferredWarmup,
                resourceMetrics, groupLabels, bucket, sustained, trimFraction, contamination, fitMargin, lateness,
                limits, runIdleEnd, defaultRules);
    }

    public TopologySettings withLimits(RunLimits l) {
        return new TopologySettings(grace, punctuateInterval, loadLevelMetrics, minInferredStep, inferredWarmup,
                resourceMetrics, groupLabels, bucket, sustained, trimFraction, contamination, fitMargin,
                allowedLateness, l, runIdleEnd, defaultRules);
    }

    public TopologySettings withRunIdleEnd(Duration idle) {
        return new TopologySettings(grace, punctuateInterval, loadLevelMetrics, minInferredStep, inferredWarmup,
                resourceMetrics, groupLabels, bucket, sustained, trimFraction, contamination, fitMargin,
                allowedLateness, limits, idle, defaultRules);
    }

    /** These settings with SLO rules for runs that bring none. */
    public TopologySettings withDefaultRules(DefaultRules rules) {
        return new TopologySettings(grace, punctuateInterval, loadLevelMetrics, minInferredStep, inferredWarmup,
                resourceMetrics, groupLabels, bucket, sustained, trimFraction, contamination, fitMargin,
                allowedLateness, limits, runIdleEnd, rules);
    }

    public long graceMicros() {
        return grace.toNanos() / 1000;
    }

    public long bucketMicros() {
        return bucket.toNanos() / 1000;
    }

    private static void requirePositive(Duration d, String name, boolean zeroAllowed) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || (!zeroAllowed && d.isZero())) {
            throw new IllegalArgumentException(name + " must be " + (zeroAllowed ? ">= 0" : "> 0") + ", was " + d);
        }
    }
}
