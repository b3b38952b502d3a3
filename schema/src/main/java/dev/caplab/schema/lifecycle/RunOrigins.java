package dev.caplab.schema.lifecycle;

import dev.caplab.schema.event.RunOrigin;
import dev.caplab.schema.event.RunStarted;

/**
 * Who said a run started: a client declaring it, or the streams app inferring it from the run's samples. A declared
 * start outranks an inferred one wherever both arrive (the run processor, the stored run row), so the streams app's
 * own inferred start, echoed back on the lifecycle topic, is never taken for a declaration.
 */
public final class RunOrigins {

    private RunOrigins() {
    }

    /** True when a client sent {@code r}, false when the streams app inferred it. */
    public static boolean declared(RunStarted r) {
        return r.getOrigin() != RunOrigin.INFERRED;
    }
}
