package dev.caplab.streams.aggregate;

import com.datadoghq.sketch.ddsketch.DDSketch;
import com.datadoghq.sketch.ddsketch.DDSketches;
import com.datadoghq.sketch.ddsketch.encoding.ByteArrayInput;
import com.datadoghq.sketch.ddsketch.encoding.GrowingByteArrayOutput;
import com.datadoghq.sketch.ddsketch.store.UnboundedSizeDenseStore;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;

/**
 * A mergeable quantile sketch: DDSketch (Masson, Rim and Lee, VLDB 2019) with relative accuracy
 * {@link #RELATIVE_ACCURACY}: every quantile it reports is within ±1 % of the value of the true order statistic
 * (|x̂_q − x_q| ≤ α·|x_q|), whatever the distribution or the value range. Its bins are integer counts indexed by
 * ⌈log_γ x⌉, so merging is adding counts: commutative and associative exactly, which makes a step's percentiles the
 * same whatever order its samples and partials arrived in (t-digest's merge is not: centroids depend on order).
 */
public final class QuantileSketch {

    /** α of the sketch: reported quantiles are within this fraction of the true value. */
    public static final double RELATIVE_ACCURACY = 0.01;

    private final DDSketch sketch;

    private QuantileSketch(DDSketch sketch) {
        this.sketch = sketch;
    }

    public static QuantileSketch empty() {
        return new QuantileSketch(DDSketches.unboundedDense(RELATIVE_ACCURACY));
    }

    /** The sketch encoded in {@code bytes[offset, offset + length)}. */
    public static QuantileSketch decode(byte[] bytes, int offset, int length) {
        try {
            return new QuantileSketch(DDSketch.decode(ByteArrayInput.wrap(bytes, offset, length),
                    UnboundedSizeDenseStore::new));
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("corrupt quantile sketch (" + length + " bytes)", e);
        }
    }

    /** Adds a value; non-finite values carry no order statistic and are left out. */
    public void add(double value) {
        if (Double.isFinite(value)) {
            sketch.accept(value);
        }
    }

    public void merge(QuantileSketch other) {
        sketch.mergeWith(other.sketch);
    }

    public boolean isEmpty() {
        return sketch.isEmpty();
    }

    /** The reported quantiles ({@link Distribution#QUANTILES}) keyed as the schema wants ("0.95"); empty if empty. */
    public Map<String, Double> quantiles() {
        Map<String, Double> out = new LinkedHashMap<>();
        if (sketch.isEmpty()) {
            return out;
        }
        for (double q : Distribution.QUANTILES) {
            out.put(Double.toString(q), sketch.getValueAtQuantile(q));
        }
        return out;
    }

    public byte[] encode() {
        GrowingByteArrayOutput out = GrowingByteArrayOutput.withInitialCapacity(64);
        try {
            sketch.encode(out, false);
        } catch (IOException e) {
            throw new SerializationException("cannot encode a quantile sketch", e);
        }
        return out.trimmedCopy();
    }
}
