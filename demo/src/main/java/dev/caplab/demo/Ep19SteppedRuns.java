package dev.caplab.demo;

import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.vocabulary.MetricNames;
import static dev.caplab.demo.DemoEvents.MBIT;
import static dev.caplab.demo.DemoEvents.MIB;
import static dev.caplab.demo.DemoEvents.labels;

import dev.caplab.schema.event.Comparator;
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
 * Seed 002 (EP19): whep-loadgen stepped tests of one standalone media node (a 10-minute soak, then 2-minute steps,
 * stop at the first failing step) on LightNode Manila 2 vCPU/4 GB (bandwidth-bound), AWS Lightsail 2 vCPU/2 GB
 * (memory-bound) and LightNode 1 vCPU/2 GB (CPU cliff at 18 → 19). From /proc every 2 s: busy cores over the
 * interval (the sampler's /proc/stat delta), memory in use (MemTotal − MemAvailable) and available, and the tx byte
 * counter of /proc/net/dev; sessions, connect failures and dropped frames scraped from /metrics every 5 s.
 */
final class Ep19SteppedRuns {

    static final String LIGHTNODE_2VCPU = "demo-ep19-lightnode-manila-2vcpu";
    static final String AWS_LIGHTSAIL_2VCPU = "demo-ep19-aws-lightsail-2vcpu";
    static final String LIGHTNODE_1VCPU = "demo-ep19-lightnode-1vcpu";

    private static final Duration HOST_EVERY = Duration.ofSeconds(2);
    private static final Duration SCRAPE_EVERY = Duration.ofSeconds(5);
    private static final Duration BASELINE = Duration.ofSeconds(30);
    private static final Duration WARMUP = Duration.ofSeconds(10);
    private static final int SOAK_SECONDS = 600;
    private static final int STEP_SECONDS = 120;
    /** The controller stops a failing step at once; how long it ran is not reported (assumed). */
    private static final int FAILING_STEP_SECONDS = 60;
    /** Per-viewer egress of one forwarded stream; the report gives none (assumed). */
    private static final double SESSION_MBPS = 1.5;
    /** Per-session memory, from Lightsail's available memory falling 289 → 33 MiB over its last 50 sessions. */
    private static final double SESSION_MIB = (289.0 - 33.0) / 50.0;
    private static final String NODE_SOURCE_SUFFIX = "-node";
    private static final String LOADGEN = "whep-loadgen";

    /** A short CPU burst inside a step: {@code cores} over the 2 s interval ending {@code atSecond} into the step. */
    private record Spike(int atSecond, double cores) {
    }

    /** One step as the run lived it; figures the report gives are typed from it, the rest are README assumptions. */
    private record StepPlan(int sessions, int seconds, double cpuCores, List<Spike> spikes, double cliffFromCores,
                            double cliffMaxCores, double egressMbps, double egressCeilingMbps, double memUsedMiB,
                            double memUsedEndMiB, int connected, double droppedFramesPerSecond) {
        boolean fails() {
            return connected < sessions || droppedFramesPerSecond > 0;
        }
    }

    /** A node under test: its environment and its steps. */
    private record Node(String runId, String host, Environment environment, double memTotalMiB, List<StepPlan> steps,
                        Instant startedAt, String bottleneck) {
    }

    private Ep19SteppedRuns() {
    }

    static List<DemoRun> build(long seed) {
        return List.of(run(lightNode2Vcpu(), seed), run(awsLightsail(), seed + 1), run(lightNode1Vcpu(), seed + 2));
    }

    private static Node lightNode2Vcpu() {
        List<StepPlan> steps = new ArrayList<>();
        for (int n : new int[] {12, 25, 50}) {
            steps.add(passing(n, 0.15 + 0.0097 * n, 380 + SESSION_MIB * n));
        }
        // 75 wants 112.5 Mbit/s but the provider caps egress near 100: connect timeouts, frames dropped, CPU spikes
        steps.add(new StepPlan(75, FAILING_STEP_SECONDS, 0.15 + 0.0097 * 75,
                List.of(new Spike(24, 1.34), new Spike(38, 1.77)), 0, 0, 75 * SESSION_MBPS, 101.0,
                380 + SESSION_MIB * 75, 380 + SESSION_MIB * 75, 66, 40));
        return new Node(LIGHTNODE_2VCPU, "lightnode-mnl", new Environment("lightnode", "manila", "2 vCPU / 4 GB",
                "2vcpu-4gb", 2.0, 4L << 30, 1000.0, 103.0), 3900, steps, Instant.parse("2026-05-12T03:00:00Z"),
                "egress");
    }

    private static Node awsLightsail() {
        List<StepPlan> steps = new ArrayList<>();
        double total = 1910;
        for (int n : new int[] {12, 25, 50, 75, 100, 150, 200, 250}) {
            steps.add(passing(n, 0.05 + 0.004 * n, total - (289 + SESSION_MIB * (250 - n))));
        }
        // 300: available memory 289 MiB -> 33 MiB, sessions stop connecting, frames drop
        steps.add(new StepPlan(300, FAILING_STEP_SECONDS, 0.05 + 0.004 * 300, List.of(), 0, 0, 300 * SESSION_MBPS,
                0, total - 289, total - 33, 283, 25));
        return new Node(AWS_LIGHTSAIL_2VCPU, "lightsail", new Environment("aws", null, "Lightsail 2 vCPU / 2 GB",
                "2vcpu-2gb", 2.0, 2L << 30, 1000.0, 2400.0), total, steps, Instant.parse("2026-05-14T02:00:00Z"),
                "memory");
    }

    private static Node lightNode1Vcpu() {
        List<StepPlan> steps = new ArrayList<>();
        int[] sessions = {10, 15, 17, 18};
        double[] cpuPercent = {26, 45, 47, 45};
        for (int i = 0; i < sessions.length; i++) {
            steps.add(passing(sessions[i], cpuPercent[i] / 100, 350 + SESSION_MIB * sessions[i]));
        }
        // 19: from ~45% to 88-103% of the one vCPU within 15 s, then frames drop
        steps.add(new StepPlan(19, FAILING_STEP_SECONDS, 0.955, List.of(), 0.45, 1.03, 19 * SESSION_MBPS, 0,
                350 + SESSION_MIB * 19, 350 + SESSION_MIB * 19, 19, 30));
        return new Node(LIGHTNODE_1VCPU, "lightnode-1c", new Environment("lightnode", null, "1 vCPU / 2 GB",
                "1vcpu-2gb", 1.0, 2L << 30, 1000.0, 103.0), 1950, steps, Instant.parse("2026-05-16T04:00:00Z"), "cpu");
    }

    private static StepPlan passing(int sessions, double cpuCores, double memUsedMiB) {
        return new StepPlan(sessions, 0, cpuCores, List.of(), 0, 0, sessions * SESSION_MBPS, 0, memUsedMiB,
                memUsedMiB, sessions, 0);
    }

    private static DemoRun run(Node node, long seed) {
        SplittableRandom random = new SplittableRandom(seed ^ node.runId().hashCode());
        RunRecorder run = new RunRecorder(node.runId());
        run.start(runStarted(node));
        String host = node.host() + NODE_SOURCE_SUFFIX;
        Map<String, String> hostLabels = labels(LabelNames.SUT, "true", LabelNames.SYSTEM, "mmx");
        Map<String, String> txLabels = labels(LabelNames.SUT, "true", LabelNames.SYSTEM, "mmx",
                LabelNames.INTERFACE, "eth0");
        Map<String, String> loadgenLabels = labels("endpoint", "/whep");

        double txBytes = 9.1e9 + 1e9 * random.nextDouble();
        double failures = 0;
        double dropped = 0;
        int connected = 0;
        Instant at = node.startedAt();
        double memUsed = node.steps().getFirst().memUsedMiB() - SESSION_MIB * node.steps().getFirst().sessions();
        // baseline: the idle node before the first step
        for (Instant t : DemoEvents.grid(at.plus(HOST_EVERY), at.plus(BASELINE), HOST_EVERY)) {
            txBytes += 0.05 * MBIT / 8 * DemoEvents.seconds(HOST_EVERY);
            hostSample(run, t, host, 0.03 * (1 + 0.5 * Shapes.noise(random)), txBytes, memUsed + Shapes.noise(random),
                    node.memTotalMiB(), hostLabels, txLabels);
        }
        Instant stepStart = at.plus(BASELINE);
        for (int s = 0; s < node.steps().size(); s++) {
            StepPlan step = node.steps().get(s);
            int seconds = step.seconds() > 0 ? step.seconds() : s == 0 ? SOAK_SECONDS : STEP_SECONDS;
            Instant stepEnd = stepStart.plusSeconds(seconds);
            int index = run.stepStarted(stepStart, DemoEvents.load("sessions", step.sessions()), WARMUP);

            List<Instant> hostTimes = DemoEvents.grid(stepStart.plus(HOST_EVERY), stepEnd, HOST_EVERY);
            double[] cores = cpuSeries(random, step, hostTimes.size());
            double[] tx = egressSeries(random, step, hostTimes.size());
            for (int i = 0; i < hostTimes.size(); i++) {
                double progress = (i + 1.0) / hostTimes.size();
                txBytes += tx[i] * MBIT / 8 * DemoEvents.seconds(HOST_EVERY);
                memUsed = step.memUsedMiB() + (step.memUsedEndMiB() - step.memUsedMiB()) * progress;
                hostSample(run, hostTimes.get(i), host, cores[i], txBytes,
                        memUsed + Shapes.noise(random), node.memTotalMiB(), hostLabels, txLabels);
            }
            int previous = connected;
            for (Instant t : DemoEvents.grid(stepStart, stepEnd, SCRAPE_EVERY)) {
                long intoStep = Duration.between(stepStart, t).toSeconds();
                // sessions join during the warm-up; the ones that never make it time out right after it
                connected = intoStep >= WARMUP.toSeconds() ? step.connected()
                        : previous + (int) ((step.connected() - previous) * intoStep / WARMUP.toSeconds());
                if (intoStep == WARMUP.toSeconds() + SCRAPE_EVERY.toSeconds()) {
                    failures += step.sessions() - step.connected();
                }
                if (intoStep > WARMUP.toSeconds() + SCRAPE_EVERY.toSeconds() && step.droppedFramesPerSecond() > 0) {
                    dropped += Math.rint(step.droppedFramesPerSecond() * SCRAPE_EVERY.toSeconds()
                            * (1 + 0.3 * Shapes.noise(random)));
                }
                run.gauge(LOADGEN, t, LOADGEN, MetricNames.SESSIONS_TARGET, step.sessions(), loadgenLabels);
                run.gauge(LOADGEN, t, LOADGEN, MetricNames.SESSIONS_CONNECTED, connected, loadgenLabels);
                run.counter(LOADGEN, t, LOADGEN, MetricNames.SESSION_CONNECT_FAILURES, failures, loadgenLabels);
                run.counter(LOADGEN, t, LOADGEN, MetricNames.FRAMES_DROPPED, dropped, loadgenLabels);
            }
            run.stepEnded(index, stepEnd);
            stepStart = stepEnd;
        }
        StepPlan last = node.steps().getLast();
        StepPlan lastPassing = node.steps().get(node.steps().size() - 2);
        run.end(stepStart, RunStatus.COMPLETED, "stopped at the first failing step, " + last.sessions()
                + " sessions; max stable " + lastPassing.sessions() + " (" + node.bottleneck() + "-bound)");
        return run.build();
    }

    /** Sustained CPU after the warm-up with exact mean; spikes; or a cliff that climbs within 15 s and stays up. */
    private static double[] cpuSeries(SplittableRandom random, StepPlan step, int n) {
        int warm = (int) (WARMUP.toSeconds() / HOST_EVERY.toSeconds());
        double[] cores = new double[n];
        if (step.cliffFromCores() > 0) {
            int climb = 7; // seven 2 s intervals: at or above 88% from 14 s into the step
            for (int i = 0; i < n; i++) {
                cores[i] = i < climb ? Shapes.ramp(step.cliffFromCores(), 0.88, i + 1, climb)
                        : 0.88 + (step.cliffMaxCores() - 0.88) * random.nextDouble();
            }
            cores[climb + (n - climb) / 3] = step.cliffMaxCores();
            return cores;
        }
        for (int i = 0; i < n; i++) {
            cores[i] = i < warm ? Shapes.ramp(0.03, step.cpuCores(), i + 1, warm)
                    : step.cpuCores() * (1 + 0.05 * Shapes.noise(random));
        }
        Shapes.shiftToMean(cores, warm, n, step.cpuCores());
        for (Spike spike : step.spikes()) {
            cores[(int) (spike.atSecond() / HOST_EVERY.toSeconds()) - 1] = spike.cores();
        }
        return cores;
    }

    /** Egress in Mbit/s per interval: sessions × bitrate, or pinned under the provider's ceiling when it binds. */
    private static double[] egressSeries(SplittableRandom random, StepPlan step, int n) {
        int warm = (int) (WARMUP.toSeconds() / HOST_EVERY.toSeconds());
        double[] mbps = new double[n];
        boolean capped = step.egressCeilingMbps() > 0 && step.egressMbps() > step.egressCeilingMbps();
        for (int i = 0; i < n; i++) {
            double level = capped ? step.egressCeilingMbps() - 4 * (1 + Shapes.noise(random))
                    : step.egressMbps() * (1 + 0.03 * Shapes.noise(random));
            mbps[i] = i < warm ? Shapes.ramp(0.05, level, i + 1, warm) : level;
        }
        if (!capped) {
            Shapes.shiftToMean(mbps, warm, n, step.egressMbps());
        }
        return mbps;
    }

    private static void hostSample(RunRecorder run, Instant t, String host, double cpuCores, double txBytes,
            double memUsedMiB, double memTotalMiB, Map<String, String> hostLabels, Map<String, String> txLabels) {
        run.gauge("host-sampler", t, host, MetricNames.CPU_CORES, cpuCores, hostLabels);
        run.counter("host-sampler", t, host, MetricNames.NET_TX_BYTES, Math.rint(txBytes), txLabels);
        run.gauge("host-sampler", t, host, MetricNames.MEM_BYTES, Math.rint(memUsedMiB * MIB), hostLabels);
        run.gauge("host-sampler", t, host, MetricNames.MEM_AVAILABLE_BYTES,
                Math.rint((memTotalMiB - memUsedMiB) * MIB), hostLabels);
    }

    private static RunStarted runStarted(Node node) {
        List<Map<String, Double>> planned = new ArrayList<>();
        for (int n : new int[] {12, 25, 50, 75, 100, 150, 200, 250, 300}) {
            planned.add(DemoEvents.load("sessions", n));
        }
        if (node.runId().equals(LIGHTNODE_1VCPU)) {
            planned = node.steps().stream().map(s -> DemoEvents.load("sessions", s.sessions())).toList();
        }
        return new RunStarted(node.runId(), node.startedAt(), new SystemUnderTest("mmx", null, null),
                node.environment(), "whep-loadgen",
                DemoEvents.runLabels("002 EP19 load-testing methodology", "node_role", "standalone", "method",
                        "stepped", "egress_measured_with", "iperf3"),
                planned,
                List.of(DemoEvents.rule(/* every session connects */ MetricNames.SESSION_CONNECT_FAILURES, "rate",
                                Comparator.LE, 0.0),
                        DemoEvents.rule(/* no dropped frames */ MetricNames.FRAMES_DROPPED, "rate", Comparator.LE, 0.0)),
                "sessions", RunOrigin.DECLARED);
    }
}
