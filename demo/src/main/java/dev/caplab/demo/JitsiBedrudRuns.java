package dev.caplab.demo;

import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.vocabulary.MetricNames;
import static dev.caplab.demo.DemoEvents.MBIT;
import static dev.caplab.demo.DemoEvents.MIB;
import static dev.caplab.demo.DemoEvents.labels;

import dev.caplab.schema.event.Environment;
import dev.caplab.schema.event.RunOrigin;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.RunStatus;
import dev.caplab.schema.event.SystemUnderTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Seed 003: Jitsi Meet (web, prosody, jicofo, jvb) and Bedrud + LiveKit on the same 5-core server, 5/10/20
 * Playwright participants for 3 minutes each; docker stats every 3–5 s per container (labelled with their system
 * so they sum) and the server's interface counters, whose delta over the pre-test background is the call traffic.
 */
final class JitsiBedrudRuns {

    static final String JITSI = "demo-jitsi-meet-5core";
    static final String BEDRUD = "demo-bedrud-livekit-5core";

    private static final int[] PARTICIPANTS = {5, 10, 20};
    /** 1 presenter and 2 speakers have cameras on; everyone else listens. */
    private static final int CAMERAS = 3;
    private static final Duration STEP = Duration.ofMinutes(3);
    private static final Duration BASELINE = Duration.ofSeconds(60);
    /** Bots join one by one between steps; the report does not say how long that took (assumed). */
    private static final Duration JOIN_GAP = Duration.ofSeconds(60);
    /** The server's own traffic before the test; the report subtracts it but does not give it (assumed). */
    private static final double BACKGROUND_TX_MBPS = 2.0;
    private static final double BACKGROUND_RX_MBPS = 1.5;
    private static final String SERVER = "gluek-server";

    /** One container: its per-step CPU mean (% of a core) and memory mean (MiB), and its idle values. */
    private record Container(String name, double idleCpuPercent, double idleMemMiB, double[] cpuPercent,
                             double[] memMiB) {
    }

    /** One system's figures per step: the report's sums, then how the containers split them (assumed). */
    private record SystemPlan(String runId, String system, String version, Instant startedAt, double[] peakCpuPercent,
                              double[] egressMbps, double[] ingressMbps, List<Container> containers,
                              String main) {
    }

    private JitsiBedrudRuns() {
    }

    static List<DemoRun> build(long seed) {
        return List.of(run(jitsi(), seed), run(bedrud(), seed + 1));
    }

    private static SystemPlan jitsi() {
        return new SystemPlan(JITSI, "jitsi", null, Instant.parse("2026-10-18T18:00:00Z"),
                new double[] {47, 42, 64}, new double[] {1.3, 3.4, 7.3}, new double[] {1.0, 0.6, 0.5},
                List.of(new Container("jitsi-jvb", 0.6, 300, new double[] {16.6, 24.5, 43.4},
                                new double[] {350, 404, 440}),
                        new Container("jitsi-jicofo", 0.3, 100, new double[] {0.8, 0.9, 1.0},
                                new double[] {97, 101, 100}),
                        new Container("jitsi-prosody", 0.2, 33, new double[] {0.4, 0.4, 0.4},
                                new double[] {33, 34, 35}),
                        new Container("jitsi-web", 0.0, 11, new double[] {0.2, 0.2, 0.2}, new double[] {11, 11, 11})),
                "jitsi-jvb");
    }

    private static SystemPlan bedrud() {
        return new SystemPlan(BEDRUD, "bedrud", "0.13", Instant.parse("2026-10-18T19:00:00Z"),
                new double[] {20, 30, 83}, new double[] {14.9, 33.0, 60.5}, new double[] {6.4, 6.5, 7.0},
                List.of(new Container("livekit", 0.3, 40, new double[] {16.85, 25.85, 43.8},
                                new double[] {80, 105, 140}),
                        new Container("bedrud", 0.1, 30, new double[] {0.15, 0.15, 0.2}, new double[] {54, 70, 108})),
                "livekit");
    }

    private static DemoRun run(SystemPlan plan, long seed) {
        SplittableRandom random = new SplittableRandom(seed ^ plan.runId().hashCode());
        RunRecorder run = new RunRecorder(plan.runId());
        run.start(runStarted(plan));
        // docker stats sweeps: every container at once, every 3-5 s
        List<Instant> sweeps = new ArrayList<>();
        Instant end = plan.startedAt().plus(BASELINE).plus(STEP.plus(JOIN_GAP).multipliedBy(PARTICIPANTS.length));
        for (Instant t = plan.startedAt(); !t.isAfter(end); t = t.plusSeconds(3 + random.nextInt(3))) {
            sweeps.add(t);
        }
        int n = sweeps.size();
        int containers = plan.containers().size();
        double[][] cpu = new double[containers][n];
        double[][] mem = new double[containers][n];
        for (int c = 0; c < containers; c++) {
            Container container = plan.containers().get(c);
            cpu[c] = Shapes.around(random, n, container.idleCpuPercent(), 0.3);
            mem[c] = Shapes.around(random, n, container.idleMemMiB(), 0.01);
        }
        double[] txMbps = Shapes.around(random, n, BACKGROUND_TX_MBPS, 0.05);
        double[] rxMbps = Shapes.around(random, n, BACKGROUND_RX_MBPS, 0.05);
        // the background is everything the interface carried before the first step
        int firstStep = indexAfter(sweeps, plan.startedAt().plus(BASELINE).plus(JOIN_GAP).minusNanos(1));
        shiftRateToMean(txMbps, sweeps, 0, firstStep, BACKGROUND_TX_MBPS);
        shiftRateToMean(rxMbps, sweeps, 0, firstStep, BACKGROUND_RX_MBPS);

        Instant stepStart = plan.startedAt().plus(BASELINE);
        int mainIndex = plan.containers().stream().map(Container::name).toList().indexOf(plan.main());
        for (int s = 0; s < PARTICIPANTS.length; s++) {
            stepStart = stepStart.plus(JOIN_GAP);
            Instant stepEnd = stepStart.plus(STEP);
            int from = indexAfter(sweeps, stepStart.minusNanos(1));
            int to = indexAfter(sweeps, stepEnd);
            double[] total = new double[n];
            for (int c = 0; c < containers; c++) {
                Container container = plan.containers().get(c);
                double[] level = Shapes.around(random, n, container.cpuPercent()[s], c == mainIndex ? 0.08 : 0.3);
                double[] memLevel = Shapes.around(random, n, container.memMiB()[s], 0.01);
                Shapes.shiftToMean(level, from, to, container.cpuPercent()[s]);
                Shapes.shiftToMean(memLevel, from, to, container.memMiB()[s]);
                System.arraycopy(level, from, cpu[c], from, to - from);
                System.arraycopy(memLevel, from, mem[c], from, to - from);
                for (int i = from; i < to; i++) {
                    total[i] += cpu[c][i];
                }
            }
            // the report's peak is of the summed containers: place it there and let the media server carry it
            double mean = 0;
            for (Container c : plan.containers()) {
                mean += c.cpuPercent()[s];
            }
            double[] others = new double[n];
            for (int i = from; i < to; i++) {
                others[i] = total[i] - cpu[mainIndex][i];
            }
            Shapes.placePeakKeepingMean(total, from, to, from + (to - from) / 4, plan.peakCpuPercent()[s], mean);
            for (int i = from; i < to; i++) {
                cpu[mainIndex][i] = total[i] - others[i];
            }
            // interface traffic: background plus the call, exact mean over the step
            for (int i = from + 1; i < to; i++) {
                txMbps[i] = BACKGROUND_TX_MBPS + plan.egressMbps()[s] * (1 + 0.06 * Shapes.noise(random));
                rxMbps[i] = BACKGROUND_RX_MBPS + plan.ingressMbps()[s] * (1 + 0.06 * Shapes.noise(random));
            }
            shiftRateToMean(txMbps, sweeps, from, to, BACKGROUND_TX_MBPS + plan.egressMbps()[s]);
            shiftRateToMean(rxMbps, sweeps, from, to, BACKGROUND_RX_MBPS + plan.ingressMbps()[s]);
            int index = run.stepStarted(stepStart,
                    DemoEvents.load("participants", PARTICIPANTS[s], "cameras", CAMERAS), Duration.ZERO);
            run.stepEnded(index, stepEnd);
            stepStart = stepEnd;
        }

        double tx = 7.7e11;
        double rx = 4.1e11;
        Map<String, String> iface = labels("scope", "host", LabelNames.INTERFACE, "eth0");
        for (int i = 0; i < n; i++) {
            Instant at = sweeps.get(i);
            for (int c = 0; c < containers; c++) {
                String name = plan.containers().get(c).name();
                Map<String, String> l = labels(LabelNames.SUT, "true", LabelNames.SYSTEM, plan.system(),
                        LabelNames.CONTAINER, name);
                run.gauge("docker-stats", at, name, MetricNames.CPU_CORES, Math.max(0, cpu[c][i]) / 100, l);
                run.gauge("docker-stats", at, name, MetricNames.MEM_BYTES, Math.rint(mem[c][i] * MIB), l);
            }
            if (i > 0) {
                double seconds = DemoEvents.seconds(Duration.between(sweeps.get(i - 1), at));
                tx += txMbps[i] * MBIT / 8 * seconds;
                rx += rxMbps[i] * MBIT / 8 * seconds;
            }
            run.counter("host-sampler", at, SERVER, MetricNames.NET_TX_BYTES, tx, iface);
            run.counter("host-sampler", at, SERVER, MetricNames.NET_RX_BYTES, rx, iface);
        }
        run.end(end, RunStatus.COMPLETED, null);
        return run.build();
    }

    /** Shifts per-interval rates (interval ending at sample i) of [from, to) so the step's counter rate is exact. */
    private static void shiftRateToMean(double[] rates, List<Instant> at, int from, int to, double mean) {
        double bits = 0;
        double seconds = 0;
        for (int i = from + 1; i < to; i++) {
            double dt = DemoEvents.seconds(Duration.between(at.get(i - 1), at.get(i)));
            bits += rates[i] * dt;
            seconds += dt;
        }
        double delta = mean - bits / seconds;
        for (int i = from + 1; i < to; i++) {
            rates[i] += delta;
        }
    }

    /** Index of the first instant after {@code t}. */
    private static int indexAfter(List<Instant> instants, Instant t) {
        int i = 0;
        while (i < instants.size() && !instants.get(i).isAfter(t)) {
            i++;
        }
        return i;
    }

    private static RunStarted runStarted(SystemPlan plan) {
        List<Map<String, Double>> planned = new ArrayList<>();
        for (int p : PARTICIPANTS) {
            planned.add(DemoEvents.load("participants", p, "cameras", CAMERAS));
        }
        return new RunStarted(plan.runId(), plan.startedAt(), new SystemUnderTest(plan.system(), plan.version(), null),
                new Environment("vps", null, "5-core VPS shared by both services", "5vcpu", 5.0, null, null, null),
                "playwright-chromium",
                DemoEvents.runLabels("003 Jitsi Meet vs Bedrud on one server", "comparison", "jitsi-vs-bedrud",
                        "traffic", "delta-over-background", "clients", "one Mac behind 65 Mbit/s DSL"),
                planned, List.of(), "cameras*(participants-1)", RunOrigin.DECLARED);
    }
}
