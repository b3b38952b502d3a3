package dev.caplab.query.testing;

import dev.caplab.schema.event.StepVerdict;
import dev.caplab.schema.serde.AvroTrust;
import java.util.Map;

/** Step verdicts as streams emits them and the sink stores them, for fixtures. */
public final class StoredVerdicts {

    static {
        AvroTrust.install(); // a verdict built without outcomes resolves their record class for the default
    }

    private StoredVerdicts() {
    }

    /**
     * The first verdict (version 1) of step {@code stepIndex}, judged, clean, no rule outcome: set what a fixture needs
     * more before building it.
     */
    public static StepVerdict.Builder verdict(String runId, int stepIndex, Map<String, Double> load, double x,
            boolean passed, String bottleneck) {
        return StepVerdict.newBuilder().setRunId(runId).setStepIndex(stepIndex).setLoad(load).setX(x)
                .setPassed(passed).setBottleneck(bottleneck).setVersion(1);
    }
}
