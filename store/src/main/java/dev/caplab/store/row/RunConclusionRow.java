package dev.caplab.store.row;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.caplab.schema.event.RunWarning;
import dev.caplab.schema.serde.AvroJson;
import dev.caplab.schema.vocabulary.MetricNames;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A row of {@code run_conclusions}: one RunConclusion (analysis {@code Conclusions}), as streams decided it and as the
 * API serves it. Max stable load and the first failing step (contaminated and unjudged steps skipped), the bottleneck
 * and the rule that named it, per resource its capacity estimate, the warnings its reader must be told first (no load
 * metric, samples after the end), and where the SLO rules the steps were judged against came from ({@code rulesFrom}:
 * {@code run}, {@code default}, {@code none}: no step judged, no max stable load; null in rows written before it was
 * kept). Every reader takes these from here; none re-decides. The highest version wins.
 *
 * <p>Stored flat, served shaped: the bottleneck columns (all null or all set) are served as one {@link #bottleneck}
 * object, {@code warningsJson} (Avro's JSON of {@code RunWarning}s) as the list {@link #warnings}. The run id is the
 * run's, which the API names beside the conclusion. {@code throughputLimit} (null when the request rate never stopped
 * growing) and {@code egressCeiling} (null when the run has none) are not part of this JSON: the API shows them as the
 * run's {@code throughputLimit} and {@code egressCeiling}. {@code version} is served: it tells a reader which revision
 * it holds.
 */
public record RunConclusionRow(@JsonIgnore String runId, Double maxStableX, Integer maxStableStepIndex,
                               Double firstFailingX, Integer firstFailingStepIndex, int stepsJudged, int stepsSkipped,
                               @JsonIgnore String bottleneckSource, @JsonIgnore String bottleneckMetric,
                               @JsonIgnore String bottleneckRule, @JsonIgnore Double bottleneckValue,
                               @JsonIgnore Integer bottleneckStepIndex, double margin,
                               List<ResourceEstimateValue> resources, boolean runClosed, String model,
                               Instant concludedAt, long version, @JsonIgnore String warningsJson, String rulesFrom,
                               @JsonIgnore @Flattened(prefix = "throughput_") ThroughputLimitValue throughputLimit,
                               @JsonIgnore @Flattened(prefix = "egress_ceiling_") EgressCeilingValue egressCeiling)
        implements RunScopedRow {

    /** What {@link #stableLoadNote} says of a run whose steps were not judged. */
    public static final String NOT_JUDGED = "not judged: the run has no SLO rules (give them with caplab run start "
            + "--slo, or caplab up --default-slo), so it has no max stable load";
    /** What {@link #stableLoadNote} says of a run judged against the default rules. */
    public static final String DEFAULT_RULES = "judged against the default SLO rules (caplab up --default-slo): the "
            + "run brought none";

    public RunConclusionRow {
        Checks.text(runId, "runId");
        Checks.nonNegative(stepsJudged, "stepsJudged");
        Checks.nonNegative(stepsSkipped, "stepsSkipped");
        if ((bottleneckMetric == null) != (bottleneckRule == null) || (bottleneckMetric == null) != (bottleneckSource == null)) {
            throw new IllegalArgumentException("run " + runId + ": bottleneck source, metric and rule go together, got "
                    + bottleneckSource + "/" + bottleneckMetric + "/" + bottleneckRule);
        }
        if (!(margin > 0 && margin <= 1)) {
            throw new IllegalArgumentException("margin must be in (0, 1], was " + margin);
        }
        resources = List.copyOf(resources);
        Checks.text(model, "model");
        Checks.storable(Objects.requireNonNull(concludedAt, "concludedAt"), "concludedAt");
        Checks.nonNegative(version, "version");
        Objects.requireNonNull(warningsJson, "warningsJson");
    }

    /** A conclusion without a throughput limit and without an egress ceiling. */
    public RunConclusionRow(String runId, Double maxStableX, Integer maxStableStepIndex, Double firstFailingX,
            Integer firstFailingStepIndex, int stepsJudged, int stepsSkipped, String bottleneckSource,
            String bottleneckMetric, String bottleneckRule, Double bottleneckValue, Integer bottleneckStepIndex,
            double margin, List<ResourceEstimateValue> resources, boolean runClosed, String model, Instant concludedAt, long version,
            String warningsJson, String rulesFrom) {
        this(runId, maxStableX, maxStableStepIndex, firstFailingX, firstFailingStepIndex, stepsJudged, stepsSkipped,
                bottleneckSource, bottleneckMetric, bottleneckRule, bottleneckValue, bottleneckStepIndex, margin,
                resources, runClosed, model, concludedAt, version, warningsJson, rulesFrom, null, null);
    }

    /** This conclusion with {@code limit} as its throughput limit. */
    public RunConclusionRow withThroughputLimit(ThroughputLimitValue limit) {
        return new RunConclusionRow(runId, maxStableX, maxStableStepIndex, firstFailingX, firstFailingStepIndex,
                stepsJudged, stepsSkipped, bottleneckSource, bottleneckMetric, bottleneckRule, bottleneckValue,
                bottleneckStepIndex, margin, resources, runClosed, model, concludedAt, version, warningsJson,
                rulesFrom, limit, egressCeiling);
    }

    /** This conclusion with {@code ceiling} as its egress ceiling. */
    public RunConclusionRow withEgressCeiling(EgressCeilingValue ceiling) {
        return new RunConclusionRow(runId, maxStableX, maxStableStepIndex, firstFailingX, firstFailingStepIndex,
                stepsJudged, stepsSkipped, bottleneckSource, bottleneckMetric, bottleneckRule, bottleneckValue,
                bottleneckStepIndex, margin, resources, runClosed, model, concludedAt, version, warningsJson,
                rulesFrom, throughputLimit, ceiling);
    }

    /** A row without warnings. */
    public RunConclusionRow(String runId, Double maxStableX, Integer maxStableStepIndex, Double firstFailingX,
                            Integer firstFailingStepIndex, int stepsJudged, int stepsSkipped,
                            String bottleneckSource, String bottleneckMetric, String bottleneckRule,
                            Double bottleneckValue, Integer bottleneckStepIndex, double margin,
                            List<ResourceEstimateValue> resources, boolean runClosed, String model, Instant concludedAt,
                            long version) {
        this(runId, maxStableX, maxStableStepIndex, firstFailingX, firstFailingStepIndex, stepsJudged, stepsSkipped,
                bottleneckSource, bottleneckMetric, bottleneckRule, bottleneckValue, bottleneckStepIndex, margin,
                resources, runClosed, model, concludedAt, version, "[]", null, null, null);
    }

    /** A conclusion that does not say where its rules came from. */
    public RunConclusionRow(String runId, Double maxStableX, Integer maxStableStepIndex, Double firstFailingX,
            Integer firstFailingStepIndex, int stepsJudged, int stepsSkipped, String bottleneckSource,
            String bottleneckMetric, String bottleneckRule, Double bottleneckValue, Integer bottleneckStepIndex,
            double margin, List<ResourceEstimateValue> resources, boolean runClosed, String model, Instant concludedAt, long version,
            String warningsJson) {
        this(runId, maxStableX, maxStableStepIndex, firstFailingX, firstFailingStepIndex, stepsJudged, stepsSkipped,
                bottleneckSource, bottleneckMetric, bottleneckRule, bottleneckValue, bottleneckStepIndex, margin,
                resources, runClosed, model, concludedAt, version, warningsJson, null, null, null);
    }

    /**
     * The bottleneck columns as one value, null when no bottleneck was named; its role is its resource's (both rules
     * name a fitted resource or a step's resource of the same source), the estimate of its metric first.
     */
    @JsonProperty("bottleneck")
    public Bottleneck bottleneck() {
        if (bottleneckMetric == null) {
            return null;
        }
        String role = resources.stream().filter(e -> e.source().equals(bottleneckSource))
                .sorted(Comparator.comparing(e -> !e.metric().equals(bottleneckMetric)))
                .map(ResourceEstimateValue::role).filter(Objects::nonNull).findFirst().orElse(null);
        return new Bottleneck(bottleneckSource, bottleneckMetric, bottleneckRule, bottleneckValue, bottleneckStepIndex,
                role);
    }

    /** The warnings of {@code warningsJson}, in their order. */
    @JsonProperty("warnings")
    public List<Warning> warnings() {
        return AvroJson.<RunWarning>decodeArray(warningsJson, RunWarning.getClassSchema()).stream()
                .map(w -> new Warning(w.getKind().toString(), w.getMessage().toString())).toList();
    }

    /**
     * Why the max stable load is absent or where the rules behind it came from: {@link #NOT_JUDGED} when no rule
     * judged the steps ({@code rulesFrom} = none), {@link #DEFAULT_RULES} when the default did; null otherwise.
     */
    @JsonProperty("stableLoadNote")
    public String stableLoadNote() {
        return "none".equals(rulesFrom) ? NOT_JUDGED : "default".equals(rulesFrom) ? DEFAULT_RULES : null;
    }

    /** The stored estimate of the bottleneck resource, if the bottleneck has one. */
    public Optional<ResourceEstimateValue> bottleneckEstimate() {
        return bottleneckMetric == null ? Optional.empty() : resources.stream()
                .filter(r -> r.metric().equals(bottleneckMetric) && r.source().equals(bottleneckSource)).findFirst();
    }

    /** The conclusion of every run of {@code rows} by run id, the last row of a run winning. */
    public static Map<String, RunConclusionRow> byRun(List<RunConclusionRow> rows) {
        Map<String, RunConclusionRow> out = new LinkedHashMap<>();
        rows.forEach(r -> out.put(r.runId(), r));
        return out;
    }

    /** The bottleneck as named in a word ({@code metric@source}, MetricNames.resourceName); null when none is. */
    public String bottleneckName() {
        return bottleneckMetric == null ? null : MetricNames.resourceName(bottleneckMetric, bottleneckSource);
    }

    /**
     * The resource that limits a run, as the conclusion's bottleneck columns name it: {@code rule}
     * SMALLEST_SAFE_CAPACITY ({@code value} is the safe capacity x) or FIRST_STEP_OVER_MARGIN ({@code value} is use /
     * ceiling in step {@code stepIndex}), and what its source is to the test ({@code sut} or {@code host}; null when
     * the conclusion predates roles). Not stored as such: the shape the API gives those columns.
     */
    public record Bottleneck(String source, String metric, String rule, Double value, Integer stepIndex,
                             String role) {
    }

    /**
     * A warning of the conclusion (analysis {@code RunWarning}): its kind and what a person should know and do. Not
     * stored as such: the shape the API gives each element of {@code warningsJson}.
     */
    public record Warning(String kind, String message) {
    }
}
