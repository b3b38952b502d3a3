package dev.caplab.demo;

import java.util.ArrayList;
import java.util.List;

/**
 * The demo runs {@code caplab up} loads, rebuilt from the field reports in {@code shared/seeds}: a pure,
 * deterministic function of the seed. See this package's README for which figures are published and which assumed.
 */
public final class DemoRuns {

    /** The seed of {@link #all()}; the same seed always yields byte-identical events. */
    public static final long DEFAULT_SEED = 20_260_727L;

    public static final String LIVEKIT_DEVMAC = LiveKitDevMacRun.RUN_ID;
    public static final String EP19_LIGHTNODE_2VCPU = Ep19SteppedRuns.LIGHTNODE_2VCPU;
    public static final String EP19_AWS_LIGHTSAIL_2VCPU = Ep19SteppedRuns.AWS_LIGHTSAIL_2VCPU;
    public static final String EP19_LIGHTNODE_1VCPU = Ep19SteppedRuns.LIGHTNODE_1VCPU;
    public static final String JITSI_MEET = JitsiBedrudRuns.JITSI;
    public static final String BEDRUD_LIVEKIT = JitsiBedrudRuns.BEDRUD;
    public static final String LOCUST_BACKEND = LocustBackendRun.RUN_ID;

    /** The text of the annotation on the LiveKit run where the competing containers were stopped. */
    public static final String STOP_COMPETITORS_ANNOTATION = LiveKitDevMacRun.STOP_COMPETITORS;

    private DemoRuns() {
    }

    /** Every demo run with the default seed, in chronological order of their start. */
    public static List<DemoRun> all() {
        return all(DEFAULT_SEED);
    }

    /** Every demo run for a seed; only the noise changes with it, never a published figure. */
    public static List<DemoRun> all(long seed) {
        List<DemoRun> runs = new ArrayList<>();
        runs.addAll(Ep19SteppedRuns.build(seed));
        runs.add(LocustBackendRun.build(seed));
        runs.add(LiveKitDevMacRun.build(seed));
        runs.addAll(JitsiBedrudRuns.build(seed));
        return List.copyOf(runs);
    }

    /** The ids of every demo run, in the order of {@link #all()}. */
    public static List<String> runIds() {
        return List.of(EP19_LIGHTNODE_2VCPU, EP19_AWS_LIGHTSAIL_2VCPU, EP19_LIGHTNODE_1VCPU, LOCUST_BACKEND,
                LIVEKIT_DEVMAC, JITSI_MEET, BEDRUD_LIVEKIT);
    }
}
