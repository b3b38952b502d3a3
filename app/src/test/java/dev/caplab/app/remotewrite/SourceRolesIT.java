package dev.caplab.app.remotewrite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.app.CaplabCli;
import dev.caplab.app.MeasuresHost;
import dev.caplab.app.up.EmbeddedStack;
import dev.caplab.app.up.UpSettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Source roles with the real tools: Debian's Prometheus remote-writes node_exporter and process-exporter to
 * {@code caplab up}, while a CPU-bound server in miniature (processes {@code srv-burner.py}, 0.5 core each, all pinned
 * to CPU 0 with taskset) grows by one process per step on a run that gives the server 0.25 vCPU. process-exporter's
 * group {@code srv} is the system under test; node_exporter's series are the host; the exporters' own
 * {@code process_cpu_seconds_total} (flat, a few milli-cores) are agents. Expected: the server is the bottleneck, no
 * agent is fitted or in the conclusion, the host is planned against the machine's own CPU count and MemTotal
 * (/proc/stat, /proc/meminfo), and per step the server's CPU in caplab equals what the kernel counted for the burner
 * processes (/proc/PID/stat utime + stime over the step's steady seconds).
 */
@MeasuresHost
class SourceRolesIT {

    private static final int UNITS = 4;
    private static final Duration STEP = Duration.ofSeconds(8);
    private static final Duration WARMUP = Duration.ofSeconds(2);
    private static final double TICKS_PER_SECOND = 100;
    /** The server's share of the machine, as a container's CPU quota would give it. */
    private static final double SERVER_VCPU = 0.25;
    /** The stack's start-up has settled once the machine is below this many busy cores (or after 20 s). */
    private static final double SETTLED_CORES = 0.9;
    private static final String BURNER = """
            import time
            period, busy = 0.02, 0.01
            while True:
                start = time.perf_counter()
                while time.perf_counter() - start < busy:
                    pass
                time.sleep(max(0.0, period - (time.perf_counter() - start)))
            """;

    @TempDir
    Path dir;

    @Test
    void theServerGroupIsTheBottleneckAgentsAreNotFittedAndTheHostHasItsOwnCeilings() throws Exception {
        String run = "roles-" + System.currentTimeMillis();
        Path burner = Files.writeString(dir.resolve("srv-burner.py"), BURNER);
        List<Process> burners = new ArrayList<>();
        try (EmbeddedStack stack = EmbeddedStack.start(new UpSettings(Files.createDirectories(dir.resolve("caplab")),
                "127.0.0.1", 0, 0, 0, false, null, List.of()),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))) {
            double background = settled();
            String kafka = stack.bootstrapServers();
            cli("run", "start", "--bootstrap-servers", kafka, "--run-id", run, "--sut", "srv", "--tool", "it",
                    "--vcpu", String.valueOf(SERVER_VCPU), "--load-expression", "units");
            try (PrometheusProcesses prometheus = PrometheusProcesses.start(
                    Files.createDirectories(dir.resolve("prom")),
                    "http://127.0.0.1:" + stack.httpPort() + "/api/v1/write?run=" + run, List.of(), """
                            process_names:
                              - name: srv
                                cmdline:
                                  - 'srv-burner\\.py'
                            """)) {
                Map<Integer, Double> kernelCores = new LinkedHashMap<>();
                for (int i = 0; i < UNITS; i++) {
                    burners.add(new ProcessBuilder("taskset", "-c", "0", "/usr/bin/python3", burner.toString())
                            .redirectErrorStream(true).redirectOutput(dir.resolve("burner-" + i + ".log").toFile())
                            .start());
                    cli("step", "--bootstrap-servers", kafka, "--run", run, "--index", String.valueOf(i), "--load",
                            "units=" + (i + 1), "--warmup", WARMUP.toSeconds() + "s");
                    Thread.sleep(WARMUP.toMillis());
                    long ticks = ticks(burners);
                    long from = System.nanoTime();
                    Thread.sleep(STEP.minus(WARMUP).toMillis());
                    kernelCores.put(i, (ticks(burners) - ticks) / TICKS_PER_SECOND / ((System.nanoTime() - from) / 1e9));
                    cli("step", "--bootstrap-servers", kafka, "--run", run, "--index", String.valueOf(i), "--end");
                }
                burners.forEach(Process::destroy);
                cli("run", "end", "--bootstrap-servers", kafka, "--run", run);
                assertAgainstTheKernel(stack, run, prometheus, kernelCores, background);
            }
        } finally {
            burners.forEach(Process::destroyForcibly);
        }
    }

    private static void assertAgainstTheKernel(EmbeddedStack stack, String run, PrometheusProcesses prometheus,
            Map<Integer, Double> kernelCores, double background) throws Exception {
        long cpus = Files.readAllLines(Path.of("/proc/stat")).stream().filter(l -> l.matches("cpu\\d+ .*")).count();
        double memTotal = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
                .mapToDouble(l -> Double.parseDouble(l.split("\\s+")[1]) * 1024).findFirst().orElseThrow();
        String host = prometheus.nodeExporterInstance();
        try (Connection c = DriverManager.getConnection(stack.clickhouseJdbcUrl())) {
            String conclusion = await(c, "SELECT bottleneck_source, bottleneck_metric, toJSONString(resources), steps_judged"
                    + " + steps_skipped FROM run_conclusions FINAL WHERE run_id = ? AND steps_judged + steps_skipped"
                    + " >= " + UNITS, run, prometheus);
            Map<String, String> fits = new LinkedHashMap<>();
            Map<String, Double> capacity = new LinkedHashMap<>();
            try (PreparedStatement s = c.prepareStatement("SELECT source, metric, role, capacity FROM capacity_fits"
                    + " FINAL WHERE run_id = ? ORDER BY source, metric")) {
                s.setString(1, run);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        fits.put(rs.getString(1) + "|" + rs.getString(2), rs.getString(3));
                        capacity.put(rs.getString(1) + "|" + rs.getString(2), rs.getObject(4) == null ? null
                                : rs.getDouble(4));
                    }
                }
            }
            Map<Integer, Double> caplabCores = new LinkedHashMap<>();
            try (PreparedStatement s = c.prepareStatement("SELECT step_index, sustained FROM step_aggregates FINAL"
                    + " WHERE run_id = ? AND source = 'srv' AND metric = 'cpu.cores' AND step_index >= 0"
                    + " ORDER BY step_index")) {
                s.setString(1, run);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        caplabCores.put(rs.getInt(1), rs.getDouble(2));
                    }
                }
            }
            System.out.printf("%s: background %.2f cores; conclusion %s; fits %s; ceilings %s (/proc/stat %d CPUs,"
                    + " /proc/meminfo %.0f bytes)%n", run, background, conclusion, fits, capacity, cpus, memTotal);
            kernelCores.forEach((step, kernel) -> System.out.printf("step %d (%d units): srv cpu.cores caplab %.3f,"
                    + " /proc %.3f%n", step, step + 1, caplabCores.get(step), kernel));

            // Whatever else the machine runs, the server is past its 0.25 vCPU share from the first unit (0.5 core a
            // burner) while the host can use at most its own cores: the server reaches C·margin first
            assertThat(conclusion).as("the bottleneck is the server's group (background %.2f cores)", background)
                    .startsWith("srv|cpu.cores|");
            assertThat(fits).as("agents are never fitted").allSatisfy((k, role) -> assertThat(k).doesNotContain("/process"))
                    .containsEntry("srv|cpu.cores", "sut").containsEntry(host + "|cpu.cores", "host");
            assertThat(conclusion).as("nor in the conclusion").doesNotContain("/process");
            assertThat(capacity.get(host + "|cpu.cores")).as("the host's CPU count").isEqualTo((double) cpus);
            if (capacity.containsKey(host + "|mem.bytes")) {
                assertThat(capacity.get(host + "|mem.bytes")).as("the host's MemTotal").isEqualTo(memTotal);
            }
            assertThat(capacity.get("srv|cpu.cores")).as("the server's share: the run's vCPU").isEqualTo(SERVER_VCPU);
            kernelCores.forEach((step, kernel) -> assertThat(caplabCores.get(step))
                    .as("step %d: srv cores in caplab vs the kernel's", step).isCloseTo(kernel, within(0.1)));
        }
    }

    /** The first row of {@code sql} (one run id parameter) as "a|b|…", within 60 s. */
    private static String await(Connection c, String sql, String run, PrometheusProcesses prometheus)
            throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            try (PreparedStatement s = c.prepareStatement(sql)) {
                s.setString(1, run);
                try (ResultSet rs = s.executeQuery()) {
                    if (rs.next()) {
                        List<String> cols = new ArrayList<>();
                        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                            cols.add(rs.getString(i));
                        }
                        return String.join("|", cols);
                    }
                }
            }
            Thread.sleep(500);
        }
        throw new AssertionError(run + ": not concluded within 60 s; prometheus log:\n" + prometheus.log("prometheus")
                + prometheus.log("process-exporter"));
    }

    /** utime + stime of every burner, in clock ticks (/proc/PID/stat fields 14 and 15). */
    private static long ticks(List<Process> processes) throws IOException {
        long total = 0;
        for (Process p : processes) {
            String stat = Files.readString(Path.of("/proc/" + p.pid() + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            total += Long.parseLong(f[11]) + Long.parseLong(f[12]);
        }
        return total;
    }

    /** The machine's busy cores once the stack's start-up settled, waiting up to 20 s for them to drop. */
    private static double settled() throws Exception {
        long patience = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        double busy = busyCores();
        while (busy > SETTLED_CORES && System.nanoTime() < patience) {
            busy = busyCores();
        }
        return busy;
    }

    /** The machine's busy cores over 2 s, from /proc/stat. */
    private static double busyCores() throws Exception {
        long before = busyTicks();
        long start = System.nanoTime();
        Thread.sleep(2000);
        return (busyTicks() - before) / TICKS_PER_SECOND / ((System.nanoTime() - start) / 1e9);
    }

    /** user + nice + system + irq + softirq + steal of /proc/stat's "cpu" line. */
    private static long busyTicks() throws IOException {
        String[] f = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
        return Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6])
                + Long.parseLong(f[7]) + Long.parseLong(f[8]);
    }

    private static void cli(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        var commandLine = CaplabCli.commandLine();
        commandLine.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        assertThat(commandLine.execute(args)).as("caplab %s: %s", String.join(" ", args),
                err.toString(StandardCharsets.UTF_8)).isZero();
    }
}
