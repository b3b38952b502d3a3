package dev.caplab.query.runs;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.schema.event.RunBottleneck;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.vocabulary.MetricNames;
import java.util.Objects;
import java.util.Optional;

/**
 * A run conclusion as the API serves it: the stored {@link RunConclusion} (max stable load, first failing step, the
 * bottleneck with the rule that named it and its source's role, each resource's capacity estimate, the warnings,
 * where the rules came from) and why its max stable load is absent or what judged it ({@link #stableLoadNote}). Its
 * run id, throughput limit and egress ceiling are not part of this JSON ({@code ConclusionMixIn}): the run detail
 * names the run and serves the last two as the run's.
 */
public record ConclusionView(@JsonUnwrapped RunConclusion stored) {

    /** What {@link #stableLoadNote} says of a run whose steps were not judged. */
    public static final String NOT_JUDGED = "not judged: the run has no SLO rules (give them with caplab run start "
            + "--slo, or caplab up --default-slo), so it has no max stable load";
    /** What {@link #stableLoadNote} says of a run judged against the default rules. */
    public static final String DEFAULT_RULES = "judged against the default SLO rules (caplab up --default-slo): the "
            + "run brought none";

    public ConclusionView {
        Objects.requireNonNull(stored, "stored");
    }

    /** The view of {@code stored}; null without one. */
    public static ConclusionView of(RunConclusion stored) {
        return stored == null ? null : new ConclusionView(stored);
    }

    /**
     * Why the max stable load is absent or where the rules behind it came from: {@link #NOT_JUDGED} when no rule
     * judged the steps ({@code rulesFrom} = none), {@link #DEFAULT_RULES} when the default did; null otherwise.
     */
    @JsonProperty("stableLoadNote")
    public String stableLoadNote() {
        String from = stored.getRulesFrom();
        return "none".equals(from) ? NOT_JUDGED : "default".equals(from) ? DEFAULT_RULES : null;
    }

    /** The stored estimate of the bottleneck resource, if the bottleneck has one. */
    public Optional<ResourceEstimate> bottleneckEstimate() {
        RunBottleneck b = stored.getBottleneck();
        return b == null ? Optional.empty() : stored.getResources().stream()
                .filter(r -> r.getMetric().equals(b.getMetric()) && r.getSource().equals(b.getSource())).findFirst();
    }

    /** The bottleneck of {@code c} named in a word ({@code metric@source}, MetricNames.resourceName); null when none is. */
    public static String bottleneckName(RunConclusion c) {
        RunBottleneck b = c == null ? null : c.getBottleneck();
        return b == null ? null : MetricNames.resourceName(b.getMetric(), b.getSource());
    }
}
