package dev.caplab.query.testing;

import dev.caplab.schema.event.Comparator;
import dev.caplab.schema.event.Environment;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunOrigin;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.RunStatus;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SloRule;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.event.SystemUnderTest;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.TopologySettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * An HTTP service's run whose system's name is hostile markup, as raw readings: a k6-like tool's per-request latency
 * and failure flag, and the service's CPU ({@code cpu.cores}) and memory ({@code mem.bytes}) once a second, over
 * {@link #USERS} steps of {@value #STEP_SECONDS} s (the first {@value #WARMUP_SECONDS} s warm-up), judged by
 * {@link #RULES}. Every derived row (aggregates, verdicts, fits, conclusion, lateness) is what the production
 * topology ({@link TopologyFeed}) makes of them; tests compute what must show from {@link #readings}
 * ({@link TrafficRunFigures}).
 *
 * <p>The readings: x/2 requests a second at x users, the j-th of a second's n requests taking L·(0.6 + 0.8·j/n) ms
 * with L = 50 + 2·x up to 60 users and 600 beyond; a request in {@link #failEvery} fails; CPU 0.1 + 0.01·x cores up
 * to 50 users and 0.025 cores per user more beyond, memory 1 GiB + 8 MiB per user, each step's level off the line by
 * a fixed ±1 % and each second's by ±0.2 %. After the run ended, {@link #LATE_SAMPLES} CPU readings of step
 * {@link #LATE_STEP} arrive late (at its own readings' values), and {@link #BEYOND_LATENESS} more after the allowed
 * lateness has passed.
 */
public final class TrafficRun {

    public static final String RUN_ID = "report-traffic-run";
    public static final String SUT = "<script>document.title='owned'</script>";
    public static final String OWNER = "<b>ops</b>";
    public static final String PROVIDER = "hetzner";
    public static final String TIER = "cx22";
    public static final String LOAD = "users";
    public static final String TOOL = "k6";
    public static final String NODE = "node";
    public static final double[] USERS = {10, 20, 30, 40, 50, 60, 70, 80};
    public static final int STEP_SECONDS = 15;
    public static final int WARMUP_SECONDS = 5;
    public static final double VCPU = 2.0;
    public static final long MEMORY_BYTES = 4L << 30;
    public static final int LATE_STEP = 1;
    public static final int LATE_SAMPLES = 3;
    public static final int BEYOND_LATENESS = 2;
    /** Before the EP19 runs, so pages that open on the most recent run's system open on EP19's. */
    public static final Instant STARTED = Instant.parse("2026-07-20T09:00:00Z");
    public static final double P95_LIMIT_MS = 500;
    public static final double FAILED_SHARE_LIMIT = 0.05;
    public static final List<SloRule> RULES = List.of(
            SloRule.newBuilder().setName("p95(http.req.duration.ms)<=500").setMetric(MetricNames.HTTP_DURATION_MS)
                    .setStatistic("p95").setComparator(Comparator.LE).setThreshold(P95_LIMIT_MS).build(),
            SloRule.newBuilder().setName("mean(http_req_failed)<=0.05").setMetric(MetricNames.K6_HTTP_REQ_FAILED)
                    .setStatistic("mean").setComparator(Comparator.LE).setThreshold(FAILED_SHARE_LIMIT).build());
    private static final double[] STEP_NOISE = {0.01, -0.01, 0, 0.01, -0.01, 0.01, 0, -0.01};

    /** One second's readings of one step: each request's latency and failure, the CPU and memory gauges. */
    public record Second(Instant at, int step, int second, double[] latencyMs, boolean[] failed, double cpuCores,
            double memBytes) {
    }

    /** A CPU reading that came late: its time, value and the step it belongs to. */
    public record LateReading(Instant at, int step, double cpuCores) {
    }

    private TrafficRun() {
    }

    /** Step {@code i}'s start. */
    public static Instant stepStart(int i) {
        return STARTED.plusSeconds((long) STEP_SECONDS * i);
    }

    /** One request in this many fails at {@code users}: 1 in 50 up to 70 users, 1 in 8 at 80. */
    public static int failEvery(double users) {
        return users < 80 ? 50 : 8;
    }

    /** Every second of the run, in time order. */
    public static List<Second> readings() {
        List<Second> out = new ArrayList<>();
        long request = 0;
        for (int i = 0; i < USERS.length; i++) {
            double x = USERS[i];
            int perSecond = (int) x / 2;
            double level = x <= 60 ? 50 + 2 * x : 600;
            double cpu = (x <= 50 ? 0.1 + 0.01 * x : 0.6 + 0.025 * (x - 50)) * (1 + STEP_NOISE[i]);
            double mem = ((1L << 30) + 8 * (1L << 20) * x) * (1 - STEP_NOISE[i]);
            for (int k = 0; k < STEP_SECONDS; k++) {
                double[] latency = new double[perSecond];
                boolean[] failed = new boolean[perSecond];
                for (int j = 0; j < perSecond; j++) {
                    latency[j] = level * (0.6 + 0.8 * j / perSecond);
                    failed[j] = request++ % failEvery(x) == 0;
                }
                double jitter = 1 + 0.002 * (k % 3 - 1);
                out.add(new Second(stepStart(i).plusSeconds(k), i, k, latency, failed, cpu * jitter, mem * jitter));
            }
        }
        return out;
    }

    /** The CPU readings sent again after the run ended: seconds 6, 7, 8 of step {@link #LATE_STEP}, then 9, 10. */
    public static List<LateReading> lateReadings() {
        return readings().stream().filter(s -> s.step() == LATE_STEP && s.second() >= 6
                        && s.second() < 6 + LATE_SAMPLES + BEYOND_LATENESS)
                .map(s -> new LateReading(s.at(), s.step(), s.cpuCores())).toList();
    }

    /** Stores everything the production topology derived from the readings ({@link #derive}). */
    public static void write(DataSource ds) {
        try (TopologyFeed feed = derive()) {
            feed.storeAll(ds, RUN_ID);
        }
    }

    /**
     * Feeds the readings to the production topology as they would arrive (each step's samples between its start and
     * end events, the run's end, the grace), then the late readings within the allowed lateness and beyond it.
     */
    static TopologyFeed derive() {
        TopologyFeed feed = new TopologyFeed(TopologySettings.defaults());
        try {
            feed.lifecycle(RUN_ID, RunStarted.newBuilder().setRunId(RUN_ID).setStartedAt(STARTED)
                    .setSut(SystemUnderTest.newBuilder().setName(SUT).setVersion("2.0").build())
                    .setEnvironment(Environment.newBuilder().setProvider(PROVIDER).setRegion("fsn1")
                            .setInstanceType("cx22").setTier(TIER).setVcpu(VCPU).setMemoryBytes(MEMORY_BYTES)
                            .setNominalEgressMbps(1000.0).build())
                    .setTool(TOOL).setLabels(Map.of("owner", OWNER)).setSloRules(RULES).setLoadExpression(LOAD)
                    .setOrigin(RunOrigin.DECLARED).build());
            List<Second> all = readings();
            for (int i = 0; i < USERS.length; i++) {
                int step = i;
                feed.lifecycle(RUN_ID, StepStarted.newBuilder().setRunId(RUN_ID).setStepIndex(i)
                        .setLoad(Map.of(LOAD, USERS[i])).setStartedAt(stepStart(i))
                        .setWarmupMicros(WARMUP_SECONDS * 1_000_000L).build());
                feed.samples(RUN_ID, all.stream().filter(s -> s.step() == step)
                        .flatMap(s -> samples(s).stream()).toList());
                feed.lifecycle(RUN_ID, StepEnded.newBuilder().setRunId(RUN_ID).setStepIndex(i)
                        .setEndedAt(stepStart(i + 1)).build());
            }
            feed.lifecycle(RUN_ID, RunEnded.newBuilder().setRunId(RUN_ID).setEndedAt(stepStart(USERS.length))
                    .setStatus(RunStatus.COMPLETED).build());
            feed.advance(Duration.ofSeconds(31));
            List<LateReading> late = lateReadings();
            feed.samples(RUN_ID, late.subList(0, LATE_SAMPLES).stream().map(TrafficRun::cpu).toList());
            feed.advance(Duration.ofSeconds(2));
            feed.advance(TopologySettings.defaults().allowedLateness().plusMinutes(1));
            feed.samples(RUN_ID, late.subList(LATE_SAMPLES, late.size()).stream().map(TrafficRun::cpu)
                    .toList());
            feed.advance(Duration.ofSeconds(2));
            return feed;
        } catch (RuntimeException e) {
            feed.close();
            throw e;
        }
    }

    private static List<Sample> samples(Second s) {
        List<Sample> out = new ArrayList<>();
        for (int j = 0; j < s.latencyMs().length; j++) {
            Map<String, String> labels = Map.of("status", s.failed()[j] ? "500" : "200", "name", "GET /");
            out.add(gauge(s.at(), TOOL, MetricNames.HTTP_DURATION_MS, s.latencyMs()[j], labels));
            out.add(gauge(s.at(), TOOL, MetricNames.K6_HTTP_REQ_FAILED, s.failed()[j] ? 1 : 0, labels));
        }
        out.add(gauge(s.at(), NODE, MetricNames.CPU_CORES, s.cpuCores(), Map.of()));
        out.add(gauge(s.at(), NODE, MetricNames.MEM_BYTES, s.memBytes(), Map.of()));
        return out;
    }

    private static Sample cpu(LateReading r) {
        return gauge(r.at(), NODE, MetricNames.CPU_CORES, r.cpuCores(), Map.of());
    }

    private static Sample gauge(Instant at, String source, String metric, double value, Map<String, String> labels) {
        return Sample.newBuilder().setTimestamp(at).setSource(source).setMetric(metric).setKind(SampleKind.GAUGE)
                .setValue(value).setLabels(labels).build();
    }
}
