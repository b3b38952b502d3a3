package dev.caplab.streams.run;

import dev.caplab.analysis.capacity.EgressCeilings;
import dev.caplab.schema.event.Environment;
import dev.caplab.schema.event.RunEgressCeiling;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.vocabulary.EgressMeasurement;
import dev.caplab.streams.Micros;
import dev.caplab.streams.input.InputEvent;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A run's measured egress ceiling from an ingested iperf3 report ({@link EgressMeasurement}): the latest one (by
 * sample time) is kept per run in {@link #STORE}, and {@link #egress} gives the run's effective egress ceiling with
 * it ({@link EgressCeilings}: a measured figure the run declared beats it, it beats a nominal one).
 */
public final class MeasuredCeilings {

    /** Run id → the latest measured egress (Mbit/s) and its time (µs); deleted when the run's state expires. */
    public static final String STORE = "caplab-measured-ceilings";

    /** A measured egress of {@code mbps} Mbit/s at {@code atMicros}. */
    public record Measured(double mbps, long atMicros) {
    }

    private final KeyValueStore<String, byte[]> store;

    MeasuredCeilings(KeyValueStore<String, byte[]> store) {
        this.store = store;
    }

    /** Hook for every input record: keeps the batch's latest egress measurement, if it has one. */
    void onInput(String runId, InputEvent input) {
        if (!(input instanceof InputEvent.Samples s)) {
            return;
        }
        Measured latest = null;
        for (Sample x : s.batch().getSamples()) {
            long t = Micros.of(x.getTimestamp());
            if (EgressMeasurement.isCeiling(x.getMetric(), x.getLabels()) && x.getValue() > 0
                    && Double.isFinite(x.getValue()) && (latest == null || t >= latest.atMicros())) {
                latest = new Measured(x.getValue(), t);
            }
        }
        if (latest == null) {
            return; // the usual batch: no store read
        }
        Optional<Measured> known = get(runId);
        if (known.isEmpty() || latest.atMicros() >= known.get().atMicros() && !latest.equals(known.get())) {
            store.put(runId, ByteBuffer.allocate(16).putDouble(latest.mbps()).putLong(latest.atMicros()).array());
        }
    }

    Optional<Measured> get(String runId) {
        byte[] b = store.get(runId);
        return b == null ? Optional.empty() : Optional.of(new Measured(ByteBuffer.wrap(b).getDouble(0),
                ByteBuffer.wrap(b).getLong(8)));
    }

    /**
     * The run's effective egress ceiling ({@link EgressCeilings#of}): its declared measured figure, else the
     * latest iperf3 measurement kept here, else its declared nominal figure.
     */
    Optional<RunEgressCeiling> egress(RunState.Mutable run) {
        Environment declared = run.started == null ? null : run.started.getEnvironment();
        return EgressCeilings.of(declared == null ? null : declared.getMeasuredEgressMbps(),
                declared == null ? null : declared.getNominalEgressMbps(),
                get(run.runId).map(m -> new EgressCeilings.Measurement(m.mbps(), Micros.toInstant(m.atMicros()))));
    }

    /** Hook when the run's state expires. */
    void forget(String runId) {
        store.delete(runId);
    }
}
