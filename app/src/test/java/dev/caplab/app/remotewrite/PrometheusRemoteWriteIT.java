package dev.caplab.app.remotewrite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.app.up.EmbeddedStack;
import dev.caplab.app.up.UpSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16 item 8 with real processes: Debian's Prometheus scrapes Debian's node_exporter every second and
 * remote-writes to {@code caplab up}'s {@code /api/v1/write?run=…}; ClickHouse then holds node_exporter's CPU
 * counters as node_exporter exposes them. Expected series come from /proc/stat (one cpuN line per CPU) and
 * node_exporter 1.5's documented modes, not from caplab; the exporter recipe's busy modes also arrive as {@code cpu.cores}.
 */
class PrometheusRemoteWriteIT {

    /** The modes node_exporter's cpu collector reports for each CPU on Linux (guest time is another metric). */
    private static final Set<String> MODES = Set.of("idle", "iowait", "irq", "nice", "softirq", "steal", "system",
            "user");
    private static final int READINGS = 3;

    @TempDir
    Path dir;

    @Test
    void nodeExporterCpuCountersArriveThroughPrometheusRemoteWrite() throws Exception {
        String run = "prom-rw-" + System.currentTimeMillis();
        Set<String> cpus = cpusOfProcStat();
        try (EmbeddedStack stack = EmbeddedStack.start(new UpSettings(Files.createDirectories(dir.resolve("caplab")),
                "127.0.0.1", 0, 0, 0, false, null, List.of()),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
             PrometheusProcesses prometheus = PrometheusProcesses.start(Files.createDirectories(dir.resolve("prom")),
                     "http://127.0.0.1:" + stack.httpPort() + "/api/v1/write?run=" + run, List.of())) {
            SamplesTable samples = new SamplesTable(stack.clickhouseJdbcUrl());
            String instance = prometheus.nodeExporterInstance();
            String perSeries = "SELECT labels['cpu'] AS cpu_label, labels['mode'] AS mode_label, "
                    + "any(source) AS series_source, any(kind) AS series_kind, any(labels) AS series_labels, "
                    + "count() AS n, arrayMap(x -> x.2, arraySort(groupArray((ts, value)))) AS series_values "
                    + "FROM samples WHERE run_id = '" + run + "' AND metric = 'node_cpu_seconds_total' "
                    + "GROUP BY cpu_label, mode_label";
            List<Map<String, Object>> series = samples.await(perSeries, rows -> rows.size() >= cpus.size()
                    * MODES.size() && rows.stream().allMatch(r -> ((Number) r.get("n")).longValue() >= READINGS),
                    Duration.ofSeconds(60));

            assertThat(series).as("series per cpu and mode; prometheus log:%n%s", prometheus.log("prometheus"))
                    .hasSize(cpus.size() * MODES.size());
            Map<String, Set<String>> modesByCpu = new TreeMap<>();
            for (Map<String, Object> s : series) {
                modesByCpu.computeIfAbsent((String) s.get("cpu_label"), c -> new TreeSet<>()).add((String) s.get("mode_label"));
                assertThat(s.get("series_source")).isEqualTo(instance);
                assertThat(s.get("series_kind")).isEqualTo("COUNTER");
                assertThat(((Number) s.get("n")).longValue()).isGreaterThanOrEqualTo(READINGS);
                @SuppressWarnings("unchecked")
                Map<String, String> labels = (Map<String, String>) s.get("series_labels");
                assertThat(labels).containsEntry("instance", instance)
                        .containsEntry("job", "node").containsKeys("cpu", "mode").doesNotContainKey("__name__");
                assertThat(values(s)).as("cpu %s mode %s", s.get("cpu_label"), s.get("mode_label")).isSorted();
            }
            assertThat(modesByCpu.keySet()).isEqualTo(cpus);
            assertThat(modesByCpu.values()).allSatisfy(modes -> assertThat(modes).isEqualTo(MODES));
            // each CPU's time, all modes together, advances with the clock: the counters moved, whichever mode a
            // loaded machine spent it in (idle alone may stand still)
            Map<String, Double> advancedSecondsByCpu = new TreeMap<>();
            for (Map<String, Object> s : series) {
                List<Double> v = values(s);
                advancedSecondsByCpu.merge((String) s.get("cpu_label"), v.getLast() - v.getFirst(), Double::sum);
            }
            assertThat(advancedSecondsByCpu.values()).allSatisfy(seconds -> assertThat(seconds).isPositive());

            // the exporter recipe applies on this path too: every busy mode of every CPU (all but idle and iowait,
            // the busy-CPU rule node_exporter's users apply) also arrives as caplab's cpu.cores counter, so
            // streams' counter rate gives cores in use
            Set<String> busyModes = new TreeSet<>(MODES);
            busyModes.removeAll(Set.of("idle", "iowait"));
            String derived = "SELECT labels['cpu'] AS cpu_label, labels['mode'] AS mode_label, any(kind) AS series_kind, "
                    + "any(source) AS series_source, count() AS n FROM samples WHERE run_id = '" + run
                    + "' AND metric = 'cpu.cores' AND labels['recipe'] = 'node_exporter' GROUP BY cpu_label, mode_label";
            List<Map<String, Object>> cores = samples.await(derived,
                    rows -> rows.size() >= cpus.size() * busyModes.size(), Duration.ofSeconds(30));
            assertThat(cores).hasSize(cpus.size() * busyModes.size());
            Map<String, Set<String>> busyByCpu = new TreeMap<>();
            for (Map<String, Object> c : cores) {
                busyByCpu.computeIfAbsent((String) c.get("cpu_label"), k -> new TreeSet<>()).add((String) c.get("mode_label"));
                assertThat(c.get("series_kind")).isEqualTo("COUNTER");
                assertThat(c.get("series_source")).isEqualTo(instance);
            }
            assertThat(busyByCpu.keySet()).isEqualTo(cpus);
            assertThat(busyByCpu.values()).allSatisfy(modes -> assertThat(modes).isEqualTo(busyModes));
        }
    }

    private static List<Double> values(Map<String, Object> row) {
        Object values = row.get("series_values");
        List<?> list = values instanceof java.sql.Array array ? toList(array) : (List<?>) values;
        return list.stream().map(v -> ((Number) v).doubleValue()).toList();
    }

    private static List<?> toList(java.sql.Array array) {
        try {
            Object raw = array.getArray();
            if (raw instanceof Object[] objects) {
                return List.of(objects);
            }
            if (raw instanceof double[] doubles) {
                return java.util.Arrays.stream(doubles).boxed().toList();
            }
            throw new IllegalStateException("unexpected array " + raw.getClass());
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** "0", "1", … from the cpuN lines of /proc/stat, as node_exporter numbers them. */
    private static Set<String> cpusOfProcStat() throws Exception {
        return Files.readAllLines(Path.of("/proc/stat")).stream().filter(l -> l.matches("cpu\\d+ .*"))
                .map(l -> l.substring(3, l.indexOf(' '))).collect(Collectors.toCollection(TreeSet::new));
    }
}
