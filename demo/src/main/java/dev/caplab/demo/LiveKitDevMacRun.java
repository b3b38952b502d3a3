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
 * Seed 000: LiveKit SFU under {@code lk load-test} on the dev Mac's Docker Desktop VM (10 vCPU / 7.75 GiB), steps
 * 5×5 → 10×10 → 20×20 → 30×30 publishers×subscribers, docker stats every 2 s, including the first 20×20 attempt
 * that the {@code llm} and {@code worker} containers contaminated and its clean re-run after they were stopped.
 */
final class LiveKitDevMacRun {

    static final String RUN_ID = "demo-livekit-devmac";
    static final String STOP_COMPETITORS = "docker stop vidconf-llm-1 vidconf-worker-1";

    private static final Instant STARTED = Instant.parse("2026-07-27T09:00:00Z");
    private static final Duration EVERY = Duration.ofSeconds(2);
    private static final int BASELINE_SAMPLES = 10;
    private static final int GAP_SAMPLES = 15;
    private static final int WARMUP_SAMPLES = 3;
    private static final Duration STEP_EXIT = Duration.ofSeconds(1);
    /** Average RTP packet size, to turn subscriber traffic into packet counts (not in the report: assumed). */
    private static final double PACKET_BYTES = 1_100;
    /** LiveKit's own transmit over what subscribers receive: RTCP, padding, retransmits (assumed). */
    private static final double TX_OVERHEAD = 1.02;

    private static final String LIVEKIT = "vidconf-livekit-1";
    private static final String LLM = "vidconf-llm-1";
    private static final String WORKER = "vidconf-worker-1";
    private static final String TESTER = "lk-load-test";
    private static final String DOCKER_STATS = "docker-stats";

    /** One lk load-test invocation; published figures from the report, the rest marked as assumed in README. */
    private record Step(int publishers, int subscribers, int samples, double peakCores, double sustainedCores,
                        double peakMemMiB, double trafficMbps, double lossPercent, int connectedSubscribers,
                        int tracksPerSubscriber, boolean contaminated) {
    }

    private static final List<Step> STEPS = List.of(
            new Step(5, 5, 23, 0.42, 0.34, 145, 7.0, 0.016, 5, 10, false),
            new Step(10, 10, 26, 1.55, 1.24, 226, 45.3, 0.010, 10, 20, false),
            // first 20x20: llm used up to 8.63 cores of the same VM; LiveKit's own figures here are assumed
            new Step(20, 20, 28, 1.15, 0.85, 560, 176.1, 2.111, 20, 40, true),
            new Step(20, 20, 28, 2.42, 1.94, 574, 176.1, 0.075, 20, 40, false),
            new Step(30, 30, 28, 6.46, 5.20, 815, 192.3, 2.30, 21, 50, false));

    private static final double LLM_PEAK_CORES = 8.63;
    private static final double LLM_BUSY_CORES = 6.4;
    private static final double WORKER_BUSY_CORES = 0.25;

    private LiveKitDevMacRun() {
    }

    static DemoRun build(long seed) {
        SplittableRandom random = new SplittableRandom(seed ^ 0x11CE_C0DEL);
        RunRecorder run = new RunRecorder(RUN_ID);
        run.start(runStarted());

        int[] firstSample = new int[STEPS.size()];
        int k = BASELINE_SAMPLES;
        for (int s = 0; s < STEPS.size(); s++) {
            firstSample[s] = k;
            k += STEPS.get(s).samples() + GAP_SAMPLES;
        }
        int total = k;
        int competitorsStopped = firstSample[2] + STEPS.get(2).samples() + 5;

        double[] lkCores = Shapes.around(random, total, 0.02, 0.5);
        double[] lkMem = Shapes.around(random, total, 95 * MIB, 0.01);
        double[] lkTxRate = Shapes.around(random, total, 0.02 * MBIT / 8, 0.5);
        double[] llmCores = Shapes.around(random, total, 0.03, 0.5);
        double[] workerCores = Shapes.around(random, total, 0.015, 0.5);
        for (int i = 0; i < BASELINE_SAMPLES; i++) {
            lkMem[i] = 60 * MIB * (1 + 0.01 * Shapes.noise(random));
        }

        double subRx = 0;
        double received = 0;
        double lost = 0;
        double failures = 0;
        double lkTx = 3.1e9;
        for (int s = 0; s < STEPS.size(); s++) {
            Step step = STEPS.get(s);
            int a = firstSample[s];
            int n = step.samples();
            int w = a + WARMUP_SAMPLES;
            int end = a + n - 1;
            // CPU: ramp while participants join, then sustained with noise, one peak sample late in the step
            for (int i = a; i < w; i++) {
                lkCores[i] = Shapes.ramp(0.05, step.sustainedCores(), i - a + 1, WARMUP_SAMPLES + 1);
            }
            double[] level = Shapes.around(random, n, step.sustainedCores(), 0.08);
            System.arraycopy(level, WARMUP_SAMPLES, lkCores, w, n - WARMUP_SAMPLES);
            Shapes.placePeak(lkCores, a, end + 1, w + (n - WARMUP_SAMPLES) * 3 / 5, step.peakCores());
            // memory grows with the session count; the peak is the last sample of the step
            double idle = lkMem[a - 1];
            for (int i = a; i <= end; i++) {
                double grown = 0.70 + 0.27 * (i - a) / (n - 1.0);
                lkMem[i] = (idle + (step.peakMemMiB() * MIB - idle) * grown) * (1 + 0.005 * Shapes.noise(random));
            }
            Shapes.placePeak(lkMem, a, end + 1, end, step.peakMemMiB() * MIB);
            for (int i = end + 1; i < Math.min(total, end + 1 + GAP_SAMPLES); i++) {
                lkMem[i] = Math.max(idle, 0.4 * step.peakMemMiB() * MIB) * (1 + 0.005 * Shapes.noise(random));
            }
            if (step.contaminated()) {
                contend(random, llmCores, workerCores, lkCores, a - 5, competitorsStopped, a, end);
            }

            // subscriber traffic: bytes per interval ending at sample i; exact mean rate over [warm-up end, end]
            double[] bytes = new double[n];
            for (int i = 1; i < n; i++) {
                double full = step.trafficMbps() * MBIT / 8 * DemoEvents.seconds(EVERY);
                bytes[i] = i < WARMUP_SAMPLES ? full * i / WARMUP_SAMPLES : full * (1 + 0.05 * Shapes.noise(random));
            }
            Shapes.scaleToSum(bytes, WARMUP_SAMPLES + 1, n,
                    step.trafficMbps() * MBIT / 8 * DemoEvents.seconds(EVERY) * (n - 1 - WARMUP_SAMPLES));
            double stepBytes = 0;
            for (double b : bytes) {
                stepBytes += b;
            }
            long stepReceived = Math.round(stepBytes / PACKET_BYTES);
            long stepLost = Math.round(stepReceived * step.lossPercent() / (100 - step.lossPercent()));
            long[] receivedPer = Shapes.apportion(bytes, stepReceived);
            double[] lossWeights = Shapes.around(random, n, 1, 0.9);
            lossWeights[0] = 0;
            long[] lostPer = Shapes.apportion(lossWeights, stepLost);

            for (int i = 0; i < n; i++) {
                Instant at = instant(a + i);
                subRx += bytes[i];
                received += receivedPer[i];
                lost += lostPer[i];
                int joined = i < WARMUP_SAMPLES ? step.connectedSubscribers() * (i + 1) / (WARMUP_SAMPLES + 1)
                        : step.connectedSubscribers();
                if (i == WARMUP_SAMPLES + 1) { // lk gives up after its 5 s ConnectTimeout, inside the measured window
                    failures += step.subscribers() - step.connectedSubscribers();
                }
                Map<String, String> tester = labels("room", "capacity-" + step.publishers() + "x" + step.subscribers());
                run.counter(TESTER, at, TESTER, MetricNames.SUBSCRIBER_RX_BYTES, subRx, tester);
                run.counter(TESTER, at, TESTER, MetricNames.RTP_PACKETS_RECEIVED, received, tester);
                run.counter(TESTER, at, TESTER, MetricNames.RTP_PACKETS_LOST, lost, tester);
                run.counter(TESTER, at, TESTER, MetricNames.SESSION_CONNECT_FAILURES, failures, tester);
                run.gauge(TESTER, at, TESTER, MetricNames.SESSIONS_TARGET, step.subscribers(), tester);
                run.gauge(TESTER, at, TESTER, MetricNames.SESSIONS_CONNECTED, joined, tester);
                run.gauge(TESTER, at, TESTER, MetricNames.TRACKS_AVAILABLE_PER_SUBSCRIBER, 2.0 * step.publishers(),
                        tester);
                run.gauge(TESTER, at, TESTER, MetricNames.TRACKS_SUBSCRIBED_PER_SUBSCRIBER,
                        i < WARMUP_SAMPLES ? step.tracksPerSubscriber() * (i + 1.0) / (WARMUP_SAMPLES + 1)
                                : step.tracksPerSubscriber(), tester);
                lkTxRate[a + i] = bytes[i] * TX_OVERHEAD / DemoEvents.seconds(EVERY);
            }
            run.gauge(TESTER, instant(end), TESTER, MetricNames.RTP_LOSS_PERCENT, step.lossPercent(),
                    labels("room", "capacity-" + step.publishers() + "x" + step.subscribers(), "summary", "true"));
            int index = run.stepStarted(instant(a),
                    DemoEvents.load("publishers", step.publishers(), "subscribers", step.subscribers()),
                    EVERY.multipliedBy(WARMUP_SAMPLES));
            // lk exits about a second after its last stats line; steps are half-open, so the summary stays inside
            run.stepEnded(index, instant(end).plus(STEP_EXIT));
        }
        run.annotate(instant(competitorsStopped), STOP_COMPETITORS,
                labels("kind", "environment-change", "reason", "llm and worker competed for the VM's CPU during the "
                        + "first 20x20 step; that step is contaminated and was re-run"));

        Map<String, String> sut = labels(LabelNames.SUT, "true", LabelNames.SYSTEM, "livekit",
                LabelNames.CONTAINER, LIVEKIT);
        Map<String, String> llm = labels(LabelNames.SUT, "false", LabelNames.SYSTEM, "llm",
                LabelNames.CONTAINER, LLM);
        Map<String, String> worker = labels(LabelNames.SUT, "false", LabelNames.SYSTEM, "worker",
                LabelNames.CONTAINER, WORKER);
        for (int i = 0; i < total; i++) {
            Instant at = instant(i);
            lkTx += lkTxRate[i] * DemoEvents.seconds(EVERY);
            run.gauge(DOCKER_STATS, at, LIVEKIT, MetricNames.CPU_CORES, lkCores[i], sut);
            run.gauge(DOCKER_STATS, at, LIVEKIT, MetricNames.MEM_BYTES, Math.rint(lkMem[i]), sut);
            run.counter(DOCKER_STATS, at, LIVEKIT, MetricNames.NET_TX_BYTES, Math.rint(lkTx), sut);
            if (i < competitorsStopped) {
                run.gauge(DOCKER_STATS, at, LLM, MetricNames.CPU_CORES, llmCores[i], llm);
                run.gauge(DOCKER_STATS, at, LLM, MetricNames.MEM_BYTES,
                        Math.rint(4.3 * DemoEvents.GIB * (1 + 0.002 * Shapes.noise(random))), llm);
                run.gauge(DOCKER_STATS, at, WORKER, MetricNames.CPU_CORES, workerCores[i], worker);
                run.gauge(DOCKER_STATS, at, WORKER, MetricNames.MEM_BYTES,
                        Math.rint(280 * MIB * (1 + 0.01 * Shapes.noise(random))), worker);
            }
        }
        run.end(instant(total - 1).plus(STEP_EXIT), RunStatus.COMPLETED, "30x30 degraded: 9 of 30 subscribers never connected, "
                + "2.30% loss; last clean step 20x20");
        return run.build();
    }

    /**
     * The llm summarisation job and the Celery worker busy from shortly before the step until they were stopped;
     * LiveKit gets what is left of the VM's 10 vCPU, so the three never add up to more than the VM has.
     */
    private static void contend(SplittableRandom random, double[] llm, double[] worker, double[] livekit,
            int from, int until, int stepFrom, int stepTo) {
        for (int i = from; i < until; i++) {
            llm[i] = LLM_BUSY_CORES * (1 + 0.25 * Shapes.noise(random));
            worker[i] = WORKER_BUSY_CORES * (1 + 0.4 * Shapes.noise(random));
        }
        Shapes.placePeak(llm, from, until, stepFrom + (stepTo - stepFrom) / 2, LLM_PEAK_CORES);
        for (int i = stepFrom; i <= stepTo; i++) {
            double left = 10.0 - llm[i] - worker[i];
            if (livekit[i] > left) {
                throw new IllegalStateException("contaminated step: LiveKit " + livekit[i] + " cores at sample " + i
                        + " exceeds the " + left + " cores the VM has left");
            }
        }
    }

    private static Instant instant(int sample) {
        return STARTED.plus(EVERY.multipliedBy(sample));
    }

    private static RunStarted runStarted() {
        List<Map<String, Double>> planned = new ArrayList<>();
        for (Step step : STEPS) {
            planned.add(DemoEvents.load("publishers", step.publishers(), "subscribers", step.subscribers()));
        }
        return new RunStarted(RUN_ID, STARTED,
                new SystemUnderTest("livekit", null, null),
                new Environment("docker-desktop", "local", "Docker Desktop VM on an Apple Silicon Mac", "dev-mac",
                        10.0, (long) (7.75 * DemoEvents.GIB), null, null),
                "lk load-test 2.18.0",
                DemoEvents.runLabels("000 LiveKit SFU load test on the dev Mac", "layout", "5x5", "num_per_second",
                        "30", "simulcast", "true", "host_is_production", "false"),
                planned,
                List.of(DemoEvents.rule(/* packet loss at most 1% */ MetricNames.RTP_LOSS_PERCENT, "last",
                                Comparator.LE, 1.0),
                        DemoEvents.rule(/* every subscriber connects */ MetricNames.SESSION_CONNECT_FAILURES, "rate",
                                Comparator.LE, 0.0)),
                "subscribers*(publishers*2)", RunOrigin.DECLARED);
    }
}
