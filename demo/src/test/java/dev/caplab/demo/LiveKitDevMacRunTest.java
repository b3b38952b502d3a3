package dev.caplab.demo;

import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.vocabulary.MetricNames;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.Sample;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Seed 000's step table recomputed from the generated docker stats and lk load-test samples. */
class LiveKitDevMacRunTest {

    // Golden data typed from seed 000, "Результаты по ступеням" and the contamination paragraph.
    private static final int[][] PUB_SUB = {{5, 5}, {10, 10}, {20, 20}, {20, 20}, {30, 30}};
    private static final double[] PEAK_CORES = {0.42, 1.55, Double.NaN, 2.42, 6.46};
    private static final double[] PEAK_MIB = {145, 226, Double.NaN, 574, 815};
    private static final double[] TRAFFIC_MBPS = {7.0, 45.3, 176.1, 176.1, 192.3};
    private static final double[] LOSS_PERCENT = {0.016, 0.010, 2.111, 0.075, 2.30};
    private static final int[] TRACKS = {10, 20, 40, 40, 50};
    private static final int[] TRACKS_AVAILABLE = {10, 20, 40, 40, 60};
    private static final int[] SUBSCRIBERS_CONNECTED = {5, 10, 20, 20, 21};
    private static final double LLM_PEAK_CORES = 8.63;
    private static final double VM_CORES = 10;

    private static final String LIVEKIT = "vidconf-livekit-1";
    private static final String TESTER = "lk-load-test";

    private final DemoRun run = TestRuns.byId(DemoRuns.LIVEKIT_DEVMAC);
    private final StepFigures figures = new StepFigures(run);

    @Test
    void stepsAreTheFourLoadLevelsPlusTheContaminatedFirst20x20() {
        assertThat(figures.steps()).hasSize(5);
        for (int i = 0; i < 5; i++) {
            assertThat(figures.step(i).load()).containsEntry("publishers", (double) PUB_SUB[i][0])
                    .containsEntry("subscribers", (double) PUB_SUB[i][1]);
            double seconds = StepFigures.seconds(figures.step(i).start(), figures.step(i).end());
            assertThat(seconds).as("lk load-test ran 45-55 s").isBetween(44.0, 56.0);
        }
        assertThat(run.runStarted().getLoadExpression()).isEqualTo("subscribers*(publishers*2)");
        assertThat(run.runStarted().getEnvironment().getVcpu()).isEqualTo(10.0);
        assertThat(run.runStarted().getEnvironment().getMemoryBytes()).isEqualTo((long) (7.75 * 1024 * 1024 * 1024));
    }

    @Test
    void peakCpuAndRamOfTheLivekitContainerAreTheReportsPerStep() {
        for (int i : new int[] {0, 1, 3, 4}) {
            StepFigures.Window w = figures.step(i);
            double cores = StepFigures.max(figures.samples(LIVEKIT, MetricNames.CPU_CORES, w.start(), w.end()));
            double mib = StepFigures.max(figures.samples(LIVEKIT, MetricNames.MEM_BYTES, w.start(), w.end()))
                    / StepFigures.MIB;
            assertThat(cores).as("peak cores step %d", i).isCloseTo(PEAK_CORES[i], within(0.005));
            assertThat(mib).as("peak MiB step %d", i).isCloseTo(PEAK_MIB[i], within(0.5));
        }
    }

    @Test
    void subscriberTrafficLossTracksAndConnectionsPerStep() {
        for (int i = 0; i < 5; i++) {
            StepFigures.Window w = figures.step(i);
            double mbps = StepFigures.rate(figures.samples(TESTER, MetricNames.SUBSCRIBER_RX_BYTES, w.sustainedFrom(),
                    w.end())) / StepFigures.MBIT_BYTES;
            assertThat(mbps).as("traffic step %d", i).isCloseTo(TRAFFIC_MBPS[i], within(0.05));

            double received = StepFigures.increase(figures.samples(TESTER, MetricNames.RTP_PACKETS_RECEIVED,
                    w.start(), w.end()));
            double lost = StepFigures.increase(figures.samples(TESTER, MetricNames.RTP_PACKETS_LOST, w.start(),
                    w.end()));
            assertThat(100 * lost / (received + lost)).as("loss step %d", i)
                    .isCloseTo(LOSS_PERCENT[i], within(0.0015));
            List<Sample> summary = figures.samples(TESTER, MetricNames.RTP_LOSS_PERCENT, w.start(), w.end());
            assertThat(summary).hasSize(1);
            assertThat(summary.getFirst().getValue()).isEqualTo(LOSS_PERCENT[i]);
            // steps are half-open [start, end): the tool's summary must fall inside its step, not on the boundary
            assertThat(summary.getFirst().getTimestamp()).isBefore(w.end());

            List<Sample> tracks = figures.samples(TESTER, MetricNames.TRACKS_SUBSCRIBED_PER_SUBSCRIBER,
                    w.sustainedFrom(), w.end());
            assertThat(StepFigures.median(tracks)).isEqualTo(TRACKS[i]);
            assertThat(StepFigures.max(figures.samples(TESTER, MetricNames.TRACKS_AVAILABLE_PER_SUBSCRIBER,
                    w.start(), w.end()))).isEqualTo(TRACKS_AVAILABLE[i]);
            assertThat(StepFigures.median(figures.samples(TESTER, MetricNames.SESSIONS_CONNECTED, w.sustainedFrom(),
                    w.end()))).isEqualTo(SUBSCRIBERS_CONNECTED[i]);
            double failures = StepFigures.increase(figures.samples(TESTER, MetricNames.SESSION_CONNECT_FAILURES,
                    w.sustainedFrom(), w.end()));
            assertThat(failures).as("connect failures step %d", i).isEqualTo(PUB_SUB[i][1]
                    - SUBSCRIBERS_CONNECTED[i]);
        }
        // 30x30: "6.46 cores on 1050 successful subscriptions" = 21 connected x 50 tracks
        assertThat(SUBSCRIBERS_CONNECTED[4] * TRACKS[4]).isEqualTo(1050);
    }

    @Test
    void contaminationIsCpuOutsideTheSutAndStopsAtTheAnnotation() {
        StepFigures.Window contaminated = figures.step(2);
        List<Sample> foreign = figures.samples(s -> "false".equals(s.getLabels().get(LabelNames.SUT))
                && s.getMetric().equals(MetricNames.CPU_CORES), contaminated.start(), contaminated.end());
        assertThat(foreign).extracting(Sample::getSource).contains("vidconf-llm-1", "vidconf-worker-1");
        double llmPeak = StepFigures.max(figures.samples("vidconf-llm-1", MetricNames.CPU_CORES,
                contaminated.start(), contaminated.end()));
        assertThat(llmPeak).isCloseTo(LLM_PEAK_CORES, within(0.005));
        List<Sample> allCpu = figures.samples(s -> s.getMetric().equals(MetricNames.CPU_CORES), contaminated.start(),
                contaminated.end());
        assertThat(StepFigures.sumPerTimestamp(allCpu)).allSatisfy(sum -> assertThat(sum).isLessThanOrEqualTo(VM_CORES));

        Annotation stop = run.lifecycle().stream().filter(Annotation.class::isInstance).map(Annotation.class::cast)
                .findFirst().orElseThrow();
        assertThat(stop.getText()).isEqualTo("docker stop vidconf-llm-1 vidconf-worker-1");
        assertThat(stop.getAt()).isAfter(contaminated.end()).isBefore(figures.step(3).start());
        assertThat(figures.samples(s -> "false".equals(s.getLabels().get(LabelNames.SUT)), stop.getAt(),
                run.samples().getLast().getTimestamp().plusSeconds(1))).isEmpty();
        // the clean steps saw no competitor above idle
        for (int i : new int[] {0, 1}) {
            StepFigures.Window w = figures.step(i);
            assertThat(StepFigures.max(figures.samples("vidconf-llm-1", MetricNames.CPU_CORES, w.start(), w.end())))
                    .isLessThan(0.1);
        }
    }
}
