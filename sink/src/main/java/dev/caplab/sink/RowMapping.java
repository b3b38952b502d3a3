package dev.caplab.sink;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.RunDeleted;
import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.RuleOutcome;
import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.schema.event.RunBottleneck;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunEgressCeiling;
import dev.caplab.schema.event.RunWarning;
import dev.caplab.schema.event.RunLateness;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.RunThroughputLimit;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.Segment;
import dev.caplab.schema.event.SloRule;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.schema.lifecycle.RunOrigins;
import dev.caplab.schema.serde.AvroJson;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.row.ResourceEstimateValue;
import dev.caplab.store.row.AlertRow;
import dev.caplab.store.row.AnnotationRow;
import dev.caplab.store.row.DeletedRunRow;
import dev.caplab.store.row.EgressCeilingValue;
import dev.caplab.store.row.BreakpointValue;
import dev.caplab.store.row.CapacityFitRow;
import dev.caplab.store.row.RuleOutcomeValue;
import dev.caplab.store.row.RunConclusionRow;
import dev.caplab.store.row.RunLatenessRow;
import dev.caplab.store.row.RunRow;
import dev.caplab.store.row.SampleRow;
import dev.caplab.store.row.SegmentValue;
import dev.caplab.store.row.SloRuleValue;
import dev.caplab.store.row.StepAggregateRow;
import dev.caplab.store.row.StepRow;
import dev.caplab.store.row.StepVerdictRow;
import dev.caplab.store.row.ThroughputLimitValue;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Events to store rows, field by field; nested Avro records become the store's typed values, field by field too.
 * Public for what writes the topology's output without a broker: tests that store what the production topology
 * derived.
 */
public final class RowMapping {

    private RowMapping() {
    }

    /**
     * One sample's row. Labels and quantiles are the decoded maps as they are (SampleRow copies them, the RowBinary
     * encoder sorts them): copying each into a sorted map first cost the sink a tenth of its CPU.
     */
    static SampleRow sample(String runId, Sample s) {
        var summary = s.getSummary();
        return new SampleRow(runId, s.getTimestamp(), s.getSource().toString(), s.getMetric().toString(),
                s.getKind().name(), s.getValue(), s.getLabels(),
                summary == null ? null : summary.getWindow().name(), summary == null ? null : summary.getCount(),
                summary == null ? null : summary.getWindowMicros(), summary == null ? null : summary.getMean(),
                summary == null ? null : summary.getMin(), summary == null ? null : summary.getMax(),
                summary == null ? Map.of() : summary.getQuantiles());
    }

    /** {@code sequence} is the event's offset + 1; a declared start outranks an inferred one (RunRepository). */
    public static RunRow run(RunStarted r, long sequence) {
        var env = r.getEnvironment();
        var sut = r.getSut();
        return new RunRow(r.getRunId().toString(), r.getStartedAt(), sut.getName().toString(), str(sut.getVersion()),
                str(sut.getConfigDigest()), env.getProvider().toString(), str(env.getRegion()),
                str(env.getInstanceType()), str(env.getTier()), env.getVcpu(), env.getMemoryBytes(),
                env.getNominalEgressMbps(), env.getMeasuredEgressMbps(), r.getTool().toString(),
                strings(r.getLabels()), r.getPlannedSteps().stream().map(RowMapping::doubles).toList(),
                r.getSloRules().stream().map(RowMapping::rule).toList(),
                r.getLoadExpression().toString(), r.getOrigin().name(), null, null, null,
                RunRepository.startVersion(RunOrigins.declared(r), sequence));
    }

    public static StepRow step(StepStarted s, long version) {
        return new StepRow(s.getRunId().toString(), s.getStepIndex(), doubles(s.getLoad()), s.getStartedAt(),
                s.getWarmupMicros(), null, version);
    }

    static DeletedRunRow deletion(RunDeleted d) {
        return new DeletedRunRow(d.getRunId().toString(), d.getDeletedAt(),
                d.getReason() == null ? null : d.getReason().toString());
    }

    static AnnotationRow annotation(Annotation a) {
        return new AnnotationRow(a.getRunId().toString(), a.getAt(), a.getText().toString(), strings(a.getLabels()));
    }

    public static StepAggregateRow aggregate(StepAggregate a) {
        return new StepAggregateRow(a.getRunId().toString(), a.getStepIndex(), doubles(a.getLoad()), a.getX(),
                a.getSource().toString(), a.getMetric().toString(), a.getKind().name(), a.getCount(),
                a.getWarmupCount(), a.getSum(), a.getMin(), a.getMax(), a.getMean(), a.getSustained(), a.getPeak(),
                doubles(a.getQuantiles()), a.getRatePerSecond(), a.getBaselineDelta(), a.getWindowStart(),
                a.getWindowEnd(), a.getContaminated(), a.getVersion(), a.getLateCount());
    }

    public static StepVerdictRow verdict(StepVerdict v) {
        return new StepVerdictRow(v.getRunId().toString(), v.getStepIndex(), doubles(v.getLoad()), v.getX(),
                v.getPassed(), v.getOutcomes().stream().map(RowMapping::outcome).toList(), v.getContaminated(), str(v.getContaminationReason()),
                str(v.getBottleneck()), v.getVersion(), v.getLateCount(), v.getWithdrawn(), v.getJudged(),
                v.getWindowStart(), v.getWindowEnd(), v.getWarmupMicros());
    }

    public static CapacityFitRow fit(CapacityFit f) {
        return new CapacityFitRow(f.getRunId().toString(), f.getSource().toString(), f.getMetric().toString(),
                f.getModel().toString(), f.getModelVersion().toString(), f.getLoadExpression().toString(),
                f.getStepsUsed(), f.getSegments().stream().map(RowMapping::segment).toList(),
                f.getBreakpoints().stream().map(RowMapping::breakpoint).toList(), f.getBreakpointPValue(),
                f.getRSquared(), f.getCliff(), f.getCliffStepIndex(), f.getCapacity(), f.getMargin(),
                f.getSafeCapacityX(), f.getBottleneck(), f.getFittedAt(), f.getVersion(), str(f.getRole()));
    }

    public static RunLatenessRow lateness(RunLateness l) {
        return new RunLatenessRow(l.getRunId().toString(), l.getLateSamples(), l.getBeyondLatenessSamples(),
                l.getUpdatedAt(), l.getVersion());
    }

    /**
     * The estimates as typed tuples; the warnings as a JSON array of kind and message (Avro's JSON encoding of a
     * record of two strings, plain JSON).
     */
    public static RunConclusionRow conclusion(RunConclusion c) {
        RunBottleneck b = c.getBottleneck();
        return new RunConclusionRow(c.getRunId().toString(), c.getMaxStableX(), c.getMaxStableStepIndex(),
                c.getFirstFailingX(), c.getFirstFailingStepIndex(), c.getStepsJudged(), c.getStepsSkipped(),
                b == null ? null : b.getSource().toString(), b == null ? null : b.getMetric().toString(),
                b == null ? null : b.getRule().name(), b == null ? null : b.getValue(),
                b == null ? null : b.getStepIndex(), c.getMargin(),
                c.getResources().stream().map(RowMapping::estimate).toList(), c.getRunClosed(),
                c.getModel().toString(), c.getConcludedAt(), c.getVersion(),
                AvroJson.encodeArray(c.getWarnings(), RunWarning.getClassSchema()),
                str(c.getRulesFrom()), throughputLimit(c.getThroughputLimit()), egressCeiling(c.getEgressCeiling()));
    }

    /** One estimate of a conclusion, every field as the analysis decided it. */
    public static ResourceEstimateValue estimate(ResourceEstimate e) {
        return new ResourceEstimateValue(e.getSource().toString(), e.getMetric().toString(), e.getIntercept(),
                e.getSlope(), e.getInterceptVariance(), e.getSlopeVariance(), e.getCovariance(), e.getResidualStdErr(),
                e.getDegreesOfFreedom(), e.getPreKneeSteps(), e.getRSquared(), e.getFromX(), e.getToX(),
                e.getCeiling(), e.getSafeCapacityX(), e.getSafeCapacityStdErr(), e.getSafeCapacityLower95(),
                e.getSafeCapacityUpper95(), e.getCappedByCliff(), e.getKneeX(), e.getCliff(), e.getCliffStepIndex(),
                e.getLastStableX(), str(e.getRole()));
    }

    private static EgressCeilingValue egressCeiling(RunEgressCeiling e) {
        return e == null ? null : new EgressCeilingValue(e.getMbps(), e.getSource().toString(), e.getMeasuredAt());
    }

    private static ThroughputLimitValue throughputLimit(RunThroughputLimit t) {
        return t == null ? null : new ThroughputLimitValue(t.getKneeX(), t.getKneeLower95(), t.getKneeUpper95(),
                t.getPlateauRatePerSecond(), t.getSlopeBeforePerX(), t.getSlopeAfterPerX(), t.getBreakpointPValue(),
                t.getStepsUsed(), t.getFittedAt(), t.getGeneratorSaturatedAtX(), t.getGeneratorCpuPercent());
    }

    public static AlertRow alert(Alert a) {
        return new AlertRow(a.getRunId().toString(), a.getAt(), a.getKind().name(), a.getStepIndex(),
                a.getMessage().toString());
    }

    private static SloRuleValue rule(SloRule r) {
        return new SloRuleValue(r.getName().toString(), r.getMetric().toString(), r.getStatistic().toString(),
                r.getComparator().name(), r.getThreshold(), str(r.getSource()));
    }

    private static RuleOutcomeValue outcome(RuleOutcome o) {
        return new RuleOutcomeValue(rule(o.getRule()), o.getObserved(), o.getPassed(), str(o.getReason()));
    }

    private static SegmentValue segment(Segment s) {
        return new SegmentValue(s.getFromX(), s.getToX(), s.getIntercept(), s.getSlope(), s.getSlopeStdErr());
    }

    private static BreakpointValue breakpoint(Breakpoint b) {
        return new BreakpointValue(b.getX(), b.getStdErr(), b.getLower95(), b.getUpper95());
    }

    private static String str(CharSequence s) {
        return s == null ? null : s.toString();
    }

    private static Map<String, String> strings(Map<? extends CharSequence, ? extends CharSequence> m) {
        Map<String, String> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(k.toString(), v.toString()));
        return out;
    }

    private static Map<String, Double> doubles(Map<? extends CharSequence, Double> m) {
        Map<String, Double> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(k.toString(), v));
        return out;
    }
}
