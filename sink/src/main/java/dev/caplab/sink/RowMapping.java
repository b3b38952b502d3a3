package dev.caplab.sink;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.RunDeleted;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunLateness;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.schema.lifecycle.RunOrigins;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.row.RunRow;
import dev.caplab.store.row.SampleRow;
import dev.caplab.store.row.RowChecks;
import dev.caplab.store.row.StepRow;
import java.util.Map;
import java.util.TreeMap;

/**
 * Events to store rows. Most events are their own rows once the store's {@link RowChecks} accept them; the rest
 * are mapped by hand, each saying why.
 * Public for what writes the topology's output without a broker: tests that store what the production topology
 * derived.
 */
public final class RowMapping {

    private RowMapping() {
    }

    /**
     * One sample's row, by hand: it is the per-sample hot path, and the summary is flattened. Labels and quantiles are the decoded maps as they are (SampleRow copies them, the RowBinary
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

    /**
     * By hand: the row flattens the event's nested sut and environment, and its version comes from a rule, not a
     * field. {@code sequence} is the event's offset + 1; a declared start outranks an inferred one (RunRepository).
     */
    public static RunRow run(RunStarted r, long sequence) {
        var env = r.getEnvironment();
        var sut = r.getSut();
        return new RunRow(r.getRunId().toString(), r.getStartedAt(), sut.getName().toString(), str(sut.getVersion()),
                str(sut.getConfigDigest()), env.getProvider().toString(), str(env.getRegion()),
                str(env.getInstanceType()), str(env.getTier()), env.getVcpu(), env.getMemoryBytes(),
                env.getNominalEgressMbps(), env.getMeasuredEgressMbps(), r.getTool().toString(),
                strings(r.getLabels()), r.getPlannedSteps().stream().map(RowMapping::doubles).toList(),
                r.getSloRules(),
                r.getLoadExpression().toString(), r.getOrigin().name(), null, null, null,
                RunRepository.startVersion(RunOrigins.declared(r), sequence));
    }

    /** By hand: the version is the caller's and the row's end is not the start event's. */
    public static StepRow step(StepStarted s, long version) {
        return new StepRow(s.getRunId().toString(), s.getStepIndex(), doubles(s.getLoad()), s.getStartedAt(),
                s.getWarmupMicros(), null, version);
    }

    /** The event is the row, once the store's checks pass. */
    static RunDeleted deletion(RunDeleted d) {
        return RowChecks.deletion(d);
    }

    /** The event is the row, once the store's checks pass. */
    public static CapacityFit fit(CapacityFit f) {
        return RowChecks.fit(f);
    }

    /** The event is the row, once the store's checks pass. */
    static Annotation annotation(Annotation a) {
        return RowChecks.annotation(a);
    }

    /** The event is the row, once the store's checks pass. */
    public static StepAggregate aggregate(StepAggregate a) {
        return RowChecks.aggregate(a);
    }

    /** The event is the row, once the store's checks pass. */
    public static StepVerdict verdict(StepVerdict v) {
        return RowChecks.verdict(v);
    }

    /** The event is the row, once the store's checks pass. */
    public static RunLateness lateness(RunLateness l) {
        return RowChecks.lateness(l);
    }

    /** The event is the row, once the store's checks pass. */
    public static RunConclusion conclusion(RunConclusion c) {
        return RowChecks.conclusion(c);
    }

    /** The event is the row, once the store's checks pass. */
    public static Alert alert(Alert a) {
        return RowChecks.alert(a);
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
