package dev.caplab.app.recipes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import dev.caplab.app.MeasuresHost;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import dev.caplab.app.CaplabCli;
import dev.caplab.app.up.EmbeddedStack;
import dev.caplab.app.up.UpSettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.stat.regression.SimpleRegression;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The acceptance case: a stepped run against a CPU-bound workload, sampled only by Debian's real
 * node_exporter, its scrapes captured as files and ingested with {@code caplab ingest --format prometheus}, gets a
 * {@code cpu.cores} fit from node_exporter's own metrics (through the node_exporter recipe) with the knee where the
 * workload saturated the machine. The same files feed two runs: one with {@code caplab run start}/{@code run end},
 * one with step events only.
 *
 * <p>Expected knee: where the machine saturated as its kernel saw it. The test reads /proc/stat itself (not through
 * node_exporter or caplab) over each step's aggregated window, and finds where those busy cores stop rising: the
 * plateau is the mean of the last two steps (units past the machine's cores), the rising line the least-squares line
 * through the steps clearly below it, the knee where they meet. By design that is x* = (C − b) / 0.5 units on C cores
 * with b busy before the test; but the burners spin on the wall clock, so with the stack busy beside them they get
 * less than their 0.5 core (0.35 per unit on a loaded 2-core CI machine, which moved its knee from the design's 3.07
 * to 4.0 units), and only the kernel's figures say where the knee really was. Tolerance ±0.75 unit: a breakpoint is
 * estimated from 4 one-second rates per step. The kernel's oracle lets the test start on a busier machine than the
 * design formula did, up to {@value #MAX_BACKGROUND_CORES} cores of background; beyond it the rise rounds off into the
 * plateau and the knee stops being one point (at 0.78 cores: the fit's 3.3 units against the kernel's 3.9).
 *
 * <p>Slope below the knee: checked against the kernel's busy time per step within 0.1 core per unit, and must stay
 * near 0.5 (never the flat idle-included total).
 */
@MeasuresHost
class NodeExporterKneeIT {

    private static final Duration STEP = Duration.ofSeconds(5);
    private static final Duration SCRAPE_EVERY = Duration.ofSeconds(1);
    /** Background above this makes the host-level knee a measure of the neighbours, not of the workload. */
    private static final double MAX_BACKGROUND_CORES = 0.65;
    /** How long the machine may take to settle after the stack started before the test calls it busy. */
    private static final Duration QUIET_PATIENCE = Duration.ofSeconds(30);
    private static final String SOURCE = "sut-host";

    @TempDir
    Path dir;

    @Test
    void nodeExporterAloneGivesACpuFitWithTheKneeWhereTheWorkloadSaturated() throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        int steps = (int) Math.round(cores / CpuBurners.CORES_PER_UNIT) + 3;
        UpSettings settings = new UpSettings(dir.resolve("data"), "127.0.0.1", 0, 0, 0, false, null, List.of());
        try (EmbeddedStack stack = EmbeddedStack.start(settings, new PrintStream(new ByteArrayOutputStream()));
             NodeExporter exporter = NodeExporter.start(dir);
             CpuBurners burners = new CpuBurners(steps)) {
            String kafka = stack.bootstrapServers();
            // the stack and node_exporter have just started: their start-up (JIT, topic creation, the streams
            // rebalance) is no neighbour, so wait for it to settle before judging the machine busy
            double background = ProcStat.busyCoresOver(Duration.ofSeconds(2));
            long patience = System.nanoTime() + QUIET_PATIENCE.toNanos();
            while (background > MAX_BACKGROUND_CORES && System.nanoTime() < patience) {
                background = ProcStat.busyCoresOver(Duration.ofSeconds(2));
            }
            String busy = String.format("the machine was still using %.2f cores %d s after the stack started: a "
                    + "host-level knee would measure the neighbours", background, QUIET_PATIENCE.toSeconds());
            if (background > MAX_BACKGROUND_CORES) {
                if ("true".equals(System.getenv("CI"))) {
                    Assertions.fail(busy);
                }
                Assumptions.abort(busy);
            }
            MeasuredCpu truth = new MeasuredCpu();
            String ceremony = "ne-knee-started";
            String bare = "ne-knee-bare";
            cli("run", "start", "--bootstrap-servers", kafka, "--run-id", ceremony, "--sut", "cpu-burner",
                    "--tool", "it", "--vcpu", String.valueOf(cores), "--load-expression", "units");
            for (int i = 0; i < steps; i++) {
                int units = i + 1;
                for (String run : List.of(ceremony, bare)) {
                    cli("step", "--bootstrap-servers", kafka, "--run", run, "--index", String.valueOf(i), "--load",
                            "units=" + units, "--warmup", "1s");
                }
                burners.units(units);
                Path file = dir.resolve("step-" + i + ".prom");
                StringBuilder scrapes = new StringBuilder();
                long scrapesPerStep = STEP.dividedBy(SCRAPE_EVERY);
                for (long n = scrapesPerStep; n >= 0; n--) {
                    long next = System.nanoTime() + SCRAPE_EVERY.toNanos();
                    if (n == scrapesPerStep - 1) {
                        truth.begin();
                    }
                    scrapes.append(exporter.scrapeStamped());
                    if (n == 0) {
                        truth.end(units);
                    }
                    if (n > 0) {
                        Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000));
                    }
                }
                Files.writeString(file, scrapes);
                for (String run : List.of(ceremony, bare)) {
                    cli("ingest", "--format", "prometheus", "--run", run, "--file", file.toString(),
                            "-o", "source=" + SOURCE, "--bootstrap", kafka);
                    cli("step", "--bootstrap-servers", kafka, "--run", run, "--index", String.valueOf(i), "--end");
                }
            }
            burners.units(0);
            cli("run", "end", "--bootstrap-servers", kafka, "--run", ceremony);

            double expectedKnee = truth.saturationUnits();
            for (String run : List.of(ceremony, bare)) {
                JsonNode fit = awaitFit(stack, run, steps);
                JsonNode breakpoints = fit.get("breakpoints");
                assertThat(breakpoints.size()).as("%s: one knee in %s", run, fit).isEqualTo(1);
                assertThat(breakpoints.get(0).get("x").asDouble()).as("%s knee (the kernel's busy cores per step %s "
                        + "saturate at %.2f units; the design's %.2f) in %s", run, truth, expectedKnee,
                        (cores - background) / CpuBurners.CORES_PER_UNIT, fit)
                        .isBetween(expectedKnee - 0.75, expectedKnee + 0.75);
                double knee = breakpoints.get(0).get("x").asDouble();
                System.out.printf("%s: knee %.2f units, the kernel's %.2f (background %.2f cores; busy cores per "
                        + "step %s)%n", run, knee, expectedKnee, background, truth);
                double slope = fit.get("segments").get(0).get("slope").asDouble();
                // the rate of busy cpu-seconds, in cores: about 0.5 core per unit below the knee, never the flat
                // idle-included total; how much the burners really got depends on the neighbours, so the exact
                // figure to match is the slope of the kernel's own busy time over the same steps
                assertThat(slope).as("%s slope below the knee in %s", run, fit)
                        .isBetween(CpuBurners.CORES_PER_UNIT - 0.25, CpuBurners.CORES_PER_UNIT + 0.25);
                double measured = truth.slopeBelow(knee);
                assertThat(slope).as("%s slope below the knee in %s vs /proc/stat's busy cores per step %s (slope %.3f)",
                        run, fit, truth, measured).isCloseTo(measured, offset(0.1));
            }
            assertRawSeriesKept(stack, ceremony);
            for (String run : List.of(ceremony, bare)) {
                assertRolesAndHostCeilings(stack, run);
            }
        }
    }

    /**
     * node_exporter's own {@code process_cpu_seconds_total} (derived as {@code sut-host/process}) is a monitoring
     * agent's: never fitted nor in the conclusion. The host's fits are planned against the machine's own CPUs and
     * memory as the kernel reports them (/proc/stat's cpuN lines, /proc/meminfo's MemTotal, read here), also on the
     * bare run, which declares no environment at all.
     */
    private static void assertRolesAndHostCeilings(EmbeddedStack stack, String run) throws Exception {
        long cpus = Files.readAllLines(Path.of("/proc/stat")).stream().filter(l -> l.matches("cpu\\d+ .*")).count();
        double memTotal = Files.readAllLines(Path.of("/proc/meminfo")).stream()
                .filter(l -> l.startsWith("MemTotal:")).mapToDouble(l -> Double.parseDouble(l.split("\\s+")[1]) * 1024)
                .findFirst().orElseThrow();
        try (Connection c = DriverManager.getConnection(stack.clickhouseJdbcUrl());
             PreparedStatement s = c.prepareStatement("SELECT source, metric, capacity, role FROM capacity_fits FINAL"
                     + " WHERE run_id = ? ORDER BY source, metric");
             PreparedStatement conclusion = c.prepareStatement("SELECT toJSONString(resources) FROM run_conclusions FINAL"
                     + " WHERE run_id = ?")) {
            s.setString(1, run);
            List<String> fitted = new ArrayList<>();
            Double hostCpus = null;
            Double hostMemory = null;
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    fitted.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(4));
                    if (rs.getString(1).equals(SOURCE) && rs.getString(2).equals("cpu.cores")) {
                        hostCpus = rs.getObject(3) == null ? null : rs.getDouble(3);
                    }
                    if (rs.getString(1).equals(SOURCE) && rs.getString(2).equals("mem.bytes")) {
                        hostMemory = rs.getObject(3) == null ? null : rs.getDouble(3);
                    }
                }
            }
            System.out.printf("%s: fits %s; host ceiling %s cores (/proc/stat: %d), %s bytes (/proc/meminfo: %.0f)%n",
                    run, fitted, hostCpus, cpus, hostMemory, memTotal);
            assertThat(fitted).as(run + ": the exporter's own process is an agent").noneMatch(f -> f.contains("/process"))
                    .contains(SOURCE + "|cpu.cores|host");
            assertThat(hostCpus).as(run + ": the host's CPU ceiling").isEqualTo((double) cpus);
            if (hostMemory != null) {
                assertThat(hostMemory).as(run + ": the host's memory ceiling").isEqualTo(memTotal);
            }
            conclusion.setString(1, run);
            try (ResultSet rs = conclusion.executeQuery()) {
                assertThat(rs.next()).as(run + " concluded").isTrue();
                assertThat(rs.getString(1)).as(run + ": conclusion resources").doesNotContain("/process")
                        .contains("\"role\"");
            }
        }
    }

    /**
     * The machine's busy cores over each step's aggregated window (after its warm-up), read from /proc/stat by the
     * test itself: what the burners really got, neighbours included.
     */
    private static final class MeasuredCpu {
        /** A step this far under the plateau is on the rising line, not rounding into the knee. */
        private static final double BELOW_PLATEAU_CORES = 0.2;
        private final List<double[]> unitsAndCores = new ArrayList<>();
        private long ticks;
        private long nanos;

        void begin() throws IOException {
            ticks = ProcStat.busyTicks();
            nanos = System.nanoTime();
        }

        void end(int units) throws IOException {
            double seconds = (System.nanoTime() - nanos) / 1e9;
            unitsAndCores.add(new double[] {units, (ProcStat.busyTicks() - ticks) / ProcStat.TICKS_PER_SECOND / seconds});
        }

        /**
         * Where the kernel's busy cores stopped rising, in units: the plateau is the mean of the last two steps (past
         * the machine's cores by design), the rising line is fitted through the steps more than
         * {@value #BELOW_PLATEAU_CORES} core under it, and the two meet at the knee.
         */
        double saturationUnits() {
            int n = unitsAndCores.size();
            assertThat(n).as("steps measured").isGreaterThanOrEqualTo(4);
            double plateau = (unitsAndCores.get(n - 1)[1] + unitsAndCores.get(n - 2)[1]) / 2;
            var rising = new SimpleRegression();
            unitsAndCores.stream().filter(p -> p[1] < plateau - BELOW_PLATEAU_CORES)
                    .forEach(p -> rising.addData(p[0], p[1]));
            assertThat(rising.getN()).as("steps below the plateau of %.2f cores in %s", plateau, this)
                    .isGreaterThanOrEqualTo(2);
            return (plateau - rising.getIntercept()) / rising.getSlope();
        }

        /** Least-squares slope of busy cores against units over the steps below {@code knee}. */
        double slopeBelow(double knee) {
            var regression = new SimpleRegression();
            unitsAndCores.stream().filter(p -> p[0] < knee).forEach(p -> regression.addData(p[0], p[1]));
            return regression.getSlope();
        }

        @Override
        public String toString() {
            StringBuilder s = new StringBuilder();
            unitsAndCores.forEach(p -> s.append(String.format("%.0f:%.2f ", p[0], p[1])));
            return s.toString().trim();
        }
    }

    /** Raw node_exporter series are stored as they came, idle included, beside the derived ones. */
    private static void assertRawSeriesKept(EmbeddedStack stack, String run) throws Exception {
        try (Connection c = DriverManager.getConnection(stack.clickhouseJdbcUrl());
             PreparedStatement s = c.prepareStatement("SELECT countIf(metric = 'node_cpu_seconds_total' AND "
                     + "labels['mode'] = 'idle'), countIf(metric = 'cpu.cores' AND labels['recipe'] = 'node_exporter' "
                     + "AND labels['mode'] IN ('idle', 'iowait')), countIf(metric = 'cpu.cores'), countIf(metric = "
                     + "'mem.bytes') FROM samples WHERE run_id = ?")) {
            s.setString(1, run);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                assertThat(rs.getLong(1)).as("raw idle series").isPositive();
                assertThat(rs.getLong(2)).as("derived idle/iowait").isZero();
                assertThat(rs.getLong(3)).as("derived cpu.cores").isPositive();
                assertThat(rs.getLong(4)).as("derived mem.bytes").isPositive();
            }
        }
    }

    /** The newest cpu.cores fit of the node_exporter source once it covers every step, as JSON fields. */
    private static JsonNode awaitFit(EmbeddedStack stack, String run, int steps) throws Exception {
        JsonMapper json = JsonMapper.builder().build();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String last = "none";
        while (System.nanoTime() < deadline) {
            try (Connection c = DriverManager.getConnection(stack.clickhouseJdbcUrl());
                 PreparedStatement s = c.prepareStatement("SELECT steps_used, toJSONString(breakpoints),"
                         + " toJSONString(segments), model "
                         + "FROM capacity_fits FINAL WHERE run_id = ? AND metric = 'cpu.cores' AND source = ?")) {
                s.setString(1, run);
                s.setString(2, SOURCE);
                try (ResultSet rs = s.executeQuery()) {
                    if (rs.next()) {
                        last = "steps " + rs.getInt(1) + ", model " + rs.getString(4) + ", breakpoints "
                                + rs.getString(2) + ", segments " + rs.getString(3);
                        if (rs.getInt(1) >= steps) {
                            var fit = json.createObjectNode();
                            fit.put("model", rs.getString(4));
                            fit.set("breakpoints", json.readTree(rs.getString(2)));
                            fit.set("segments", json.readTree(rs.getString(3)));
                            return fit;
                        }
                    }
                }
            }
            Thread.sleep(500);
        }
        throw new AssertionError(run + ": no cpu.cores fit over " + steps + " steps of " + SOURCE + " within 60 s; last: "
                + last);
    }

    private static void cli(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        var commandLine = CaplabCli.commandLine();
        commandLine.setErr(new java.io.PrintWriter(err, true, StandardCharsets.UTF_8));
        int code = commandLine.execute(args);
        assertThat(code).as("caplab %s: %s", String.join(" ", new ArrayList<>(List.of(args))),
                err.toString(StandardCharsets.UTF_8)).isZero();
    }
}
