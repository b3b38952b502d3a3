package dev.caplab.query.conclusion;

import dev.caplab.schema.event.RunWarning;
import dev.caplab.schema.serde.AvroJson;
import dev.caplab.store.row.EgressCeilingValue;
import dev.caplab.store.row.ResourceEstimateValue;
import dev.caplab.store.row.RunConclusionRow;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import dev.caplab.store.row.ThroughputLimitValue;
import java.time.Instant;
import java.util.List;

/**
 * The run conclusion as streams stored it (analysis {@code Conclusions}): max stable load and the first failing step
 * (contaminated and unjudged steps skipped), the bottleneck and the rule that named it, and per resource its
 * capacity estimate, the warnings its reader must be told first (no load metric, samples after the end), and
 * where the SLO rules the steps were judged against came from ({@code run}, {@code default}, {@code none}: no
 * step judged, no max stable load). Every reader of the query API takes these from here; none re-decides.
 * {@code throughputLimit} (null when the request rate never stopped growing) and {@code egressCeiling} (null when the
 * run has none) are not part of this JSON: the API shows them as the run's {@code throughputLimit}
 * (ThroughputService) and {@code egressCeiling} (RunService).
 */
public record ConclusionView(Double maxStableX, Integer maxStableStepIndex, Double firstFailingX,
                             Integer firstFailingStepIndex, int stepsJudged, int stepsSkipped,
                             BottleneckView bottleneck, double margin, List<ResourceEstimateValue> resources, boolean runClosed,
                             String model, Instant concludedAt, long version, List<WarningView> warnings,
                             String rulesFrom,
                             @com.fasterxml.jackson.annotation.JsonIgnore ThroughputLimitValue throughputLimit,
                             @com.fasterxml.jackson.annotation.JsonIgnore EgressCeilingValue egressCeiling) {

    /** What {@link #stableLoadNote} says of a run whose steps were not judged. */
    public static final String NOT_JUDGED = "not judged: the run has no SLO rules (give them with caplab run start "
            + "--slo, or caplab up --default-slo), so it has no max stable load";
    /** What {@link #stableLoadNote} says of a run judged against the default rules. */
    public static final String DEFAULT_RULES = "judged against the default SLO rules (caplab up --default-slo): the "
            + "run brought none";

    public ConclusionView {
        resources = List.copyOf(resources);
        warnings = List.copyOf(warnings);
    }

    /** A conclusion without a throughput limit and without an egress ceiling. */
    public ConclusionView(Double maxStableX, Integer maxStableStepIndex, Double firstFailingX,
            Integer firstFailingStepIndex, int stepsJudged, int stepsSkipped, BottleneckView bottleneck, double margin,
            List<ResourceEstimateValue> resources, boolean runClosed, String model, Instant concludedAt, long version,
            List<WarningView> warnings, String rulesFrom) {
        this(maxStableX, maxStableStepIndex, firstFailingX, firstFailingStepIndex, stepsJudged, stepsSkipped,
                bottleneck, margin, resources, runClosed, model, concludedAt, version, warnings, rulesFrom, null,
                null);
    }

    /** A conclusion without warnings. */
    public ConclusionView(Double maxStableX, Integer maxStableStepIndex, Double firstFailingX,
                          Integer firstFailingStepIndex, int stepsJudged, int stepsSkipped, BottleneckView bottleneck,
                          double margin, List<ResourceEstimateValue> resources, boolean runClosed, String model,
                          Instant concludedAt, long version) {
        this(maxStableX, maxStableStepIndex, firstFailingX, firstFailingStepIndex, stepsJudged, stepsSkipped,
                bottleneck, margin, resources, runClosed, model, concludedAt, version, List.of(), null, null, null);
    }

    /** A conclusion that does not say where its rules came from (stored before it was kept). */
    public ConclusionView(Double maxStableX, Integer maxStableStepIndex, Double firstFailingX,
            Integer firstFailingStepIndex, int stepsJudged, int stepsSkipped, BottleneckView bottleneck, double margin,
            List<ResourceEstimateValue> resources, boolean runClosed, String model, Instant concludedAt, long version,
            List<WarningView> warnings) {
        this(maxStableX, maxStableStepIndex, firstFailingX, firstFailingStepIndex, stepsJudged, stepsSkipped,
                bottleneck, margin, resources, runClosed, model, concludedAt, version, warnings, null, null, null);
    }

    /**
     * Why the max stable load is absent or where the rules behind it came from: {@link #NOT_JUDGED} when no rule
     * judged the steps ({@code rulesFrom} = none), {@link #DEFAULT_RULES} when the default did; null otherwise.
     */
    @com.fasterxml.jackson.annotation.JsonProperty("stableLoadNote")
    public String stableLoadNote() {
        return "none".equals(rulesFrom) ? NOT_JUDGED : "default".equals(rulesFrom) ? DEFAULT_RULES : null;
    }

    /**
     * The view of a stored conclusion; the bottleneck's role is its resource's (both rules name a fitted resource
     * or a step's resource of the same source).
     */
    public static ConclusionView of(RunConclusionRow r) {
        List<ResourceEstimateValue> estimates = r.resources();
        String role = estimates.stream().filter(e -> e.source().equals(r.bottleneckSource()))
                .sorted(Comparator.comparing(e -> !e.metric().equals(r.bottleneckMetric())))
                .map(ResourceEstimateValue::role).filter(Objects::nonNull).findFirst().orElse(null);
        BottleneckView bottleneck = r.bottleneckMetric() == null ? null : new BottleneckView(r.bottleneckSource(),
                r.bottleneckMetric(), r.bottleneckRule(), r.bottleneckValue(), r.bottleneckStepIndex(), role);
        return new ConclusionView(r.maxStableX(), r.maxStableStepIndex(), r.firstFailingX(), r.firstFailingStepIndex(),
                r.stepsJudged(), r.stepsSkipped(), bottleneck, r.margin(), estimates,
                r.runClosed(), r.model(), r.concludedAt(), r.version(),
                AvroJson.<RunWarning>decodeArray(r.warningsJson(), RunWarning.getClassSchema()).stream()
                        .map(w -> new WarningView(w.getKind().toString(), w.getMessage().toString())).toList(),
                r.rulesFrom(), r.throughputLimit(), r.egressCeiling());
    }

    /** The newest conclusion of every run of {@code rows} by run id. */
    public static Map<String, ConclusionView> byRun(List<RunConclusionRow> rows) {
        Map<String, ConclusionView> out = new LinkedHashMap<>();
        rows.forEach(r -> out.put(r.runId(), of(r)));
        return out;
    }

    /** The stored estimate of the bottleneck resource, if the bottleneck has one. */
    public java.util.Optional<ResourceEstimateValue> bottleneckEstimate() {
        return bottleneck == null ? java.util.Optional.empty() : resources.stream()
                .filter(r -> r.metric().equals(bottleneck.metric()) && r.source().equals(bottleneck.source()))
                .findFirst();
    }
}
