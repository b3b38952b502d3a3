package dev.caplab.schema.serde;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunLateness;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.event.StepVerdict;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * The serdes of every caplab topic value, over {@link KnownSchemas#standard()} (current plus released writers).
 * Keys are run ids: use {@code Serdes.String()}. Instances are thread-safe and may be shared.
 */
public final class EventSerdes {

    static {
        AvroTrust.install(); // before any serde resolves a record written without a defaulted enum field
    }

    private static final KnownSchemas KNOWN = KnownSchemas.standard();
    private static final AvroSerde<RunStarted> RUN_STARTED = new AvroSerde<>(RunStarted.class, KNOWN);
    private static final AvroSerde<StepStarted> STEP_STARTED = new AvroSerde<>(StepStarted.class, KNOWN);
    private static final AvroSerde<StepEnded> STEP_ENDED = new AvroSerde<>(StepEnded.class, KNOWN);
    private static final AvroSerde<RunEnded> RUN_ENDED = new AvroSerde<>(RunEnded.class, KNOWN);
    private static final AvroSerde<Annotation> ANNOTATION = new AvroSerde<>(Annotation.class, KNOWN);
    private static final AvroSerde<SampleBatch> SAMPLE_BATCH = new AvroSerde<>(SampleBatch.class, KNOWN,
            SampleBatchCodec::new);
    private static final AvroSerde<StepAggregate> STEP_AGGREGATE = new AvroSerde<>(StepAggregate.class, KNOWN);
    private static final AvroSerde<StepVerdict> STEP_VERDICT = new AvroSerde<>(StepVerdict.class, KNOWN);
    private static final AvroSerde<CapacityFit> CAPACITY_FIT = new AvroSerde<>(CapacityFit.class, KNOWN);
    private static final AvroSerde<Alert> ALERT = new AvroSerde<>(Alert.class, KNOWN);
    private static final AvroSerde<RunLateness> RUN_LATENESS = new AvroSerde<>(RunLateness.class, KNOWN);
    private static final AvroSerde<RunConclusion> RUN_CONCLUSION = new AvroSerde<>(RunConclusion.class, KNOWN);
    private static final LifecycleSerde LIFECYCLE = new LifecycleSerde(KNOWN);

    private EventSerdes() {
    }

    /** Values of {@code caplab.runs}: any lifecycle event, decoded to its own class. */
    public static LifecycleSerde lifecycle() {
        return LIFECYCLE;
    }

    /** Values of {@code caplab.samples}. */
    public static AvroSerde<SampleBatch> sampleBatch() {
        return SAMPLE_BATCH;
    }

    /** Values of {@code caplab.step-aggregates}. */
    public static AvroSerde<StepAggregate> stepAggregate() {
        return STEP_AGGREGATE;
    }

    /** Values of {@code caplab.verdicts}. */
    public static AvroSerde<StepVerdict> stepVerdict() {
        return STEP_VERDICT;
    }

    /** Values of {@code caplab.fits}. */
    public static AvroSerde<CapacityFit> capacityFit() {
        return CAPACITY_FIT;
    }

    /** Values of {@code caplab.alerts}. */
    public static AvroSerde<Alert> alert() {
        return ALERT;
    }

    /** Values of {@code caplab.run-lateness}. */
    public static AvroSerde<RunLateness> runLateness() {
        return RUN_LATENESS;
    }

    /** Values of {@code caplab.conclusions}. */
    public static AvroSerde<RunConclusion> runConclusion() {
        return RUN_CONCLUSION;
    }

    public static AvroSerde<RunStarted> runStarted() {
        return RUN_STARTED;
    }

    public static AvroSerde<StepStarted> stepStarted() {
        return STEP_STARTED;
    }

    public static AvroSerde<StepEnded> stepEnded() {
        return STEP_ENDED;
    }

    public static AvroSerde<RunEnded> runEnded() {
        return RUN_ENDED;
    }

    public static AvroSerde<Annotation> annotation() {
        return ANNOTATION;
    }

    /** A serde of any generated event type over the standard known schemas. */
    public static <T extends SpecificRecordBase> AvroSerde<T> forType(Class<T> type) {
        return new AvroSerde<>(type, KNOWN);
    }
}
