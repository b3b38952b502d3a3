package dev.caplab.app.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.app.CaplabCli;
import dev.caplab.app.RepoRoot;
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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache JMeter 5.6.3 from Maven Central (laid out by the jmeter-home module), non-GUI in its own JVM, runs a plan
 * of {@value #THREADS} threads × {@value #LOOPS} GETs against a real server, writing a CSV JTL and streaming its
 * InfluxDB backend listener into caplab's {@code /write}; the JTL is then ingested with
 * {@code caplab ingest --format jmeter}. Both land in the same run, and both are checked in ClickHouse against the
 * JTL as read here, line by line: its row count, its summed, smallest and largest elapsed times.
 */
class JmeterIT {

    private static final String RUN = "jmeter-it";
    private static final int THREADS = 4;
    private static final int LOOPS = 25;
    private static final String LABEL = "GET /work";
    private static final String LISTENER = "labels['aggregation'] = 'jmeter-backend-listener'";

    @TempDir
    Path dir;

    @Test
    void backendListenerAndJtlBothArriveAndAgreeWithTheJtl() throws Exception {
        Path home = RealTools.jmeterHome(RepoRoot.find());
        // NewDriver looks for lib/junit (JUnit sampler plans) and prints a stack trace when it is absent
        Files.createDirectories(home.resolve("lib/junit"));
        try (EmbeddedStack stack = EmbeddedStack.start(new UpSettings(dir.resolve("data"), "127.0.0.1", 0, 0, 0,
                false, null, List.of()), new PrintStream(new ByteArrayOutputStream()));
             SutProcess sut = SutProcess.start(THREADS, 1, 5)) {
            String plan = new String(JmeterIT.class.getResourceAsStream("/tools/jmeter_plan.jmx").readAllBytes(),
                    StandardCharsets.UTF_8)
                    .replace("@THREADS@", Integer.toString(THREADS)).replace("@LOOPS@", Integer.toString(LOOPS))
                    .replace("@SUT_PORT@", Integer.toString(sut.port()))
                    .replace("@INFLUXDB_URL@", "http://127.0.0.1:" + stack.httpPort() + "/write?db=" + RUN);
            Files.writeString(dir.resolve("plan.jmx"), plan);
            Path jtl = dir.resolve("out.jtl");
            Path log = dir.resolve("jmeter.log");
            Path console = dir.resolve("jmeter.out");
            Process jmeter = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Djava.awt.headless=true", "-Xmx256m", "-jar", home.resolve("bin/ApacheJMeter.jar").toString(),
                    "-n", "-t", "plan.jmx", "-l", jtl.toString(), "-j", log.toString(),
                    // the listener's send interval (5 s by default): the run lasts seconds
                    "-Jbackend_influxdb.send_interval=1",
                    // every figure of a row over its own interval (JMeter's default: mean, min, max and percentiles
                    // over the last 100 samples, across intervals; only the counts per interval)
                    "-Jbackend_metrics_window_mode=timed",
                    // its 3 s answer timeout drops a window when a shared CI machine stalls caplab's first writes
                    "-Jbackend_influxdb.socket_timeout=30000", "-Jbackend_influxdb.connection_request_timeout=30000")
                    .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(console.toFile()).start();
            boolean finished = jmeter.waitFor(90, TimeUnit.SECONDS);
            if (!finished) {
                jmeter.destroyForcibly();
            }
            String output = Files.readString(console) + "\n" + (Files.exists(log) ? Files.readString(log) : "");
            assertThat(finished).as(output).isTrue();
            assertThat(jmeter.exitValue()).as(output).isZero();
            // HttpMetricsSender logs every write caplab refused
            assertThat(output).as(output).doesNotContain("Error writing metrics");

            JtlFile rows = JtlFile.read(jtl);
            assertThat(rows.count()).as("JTL rows").isEqualTo(THREADS * LOOPS);
            assertThat(rows.allSucceeded()).isTrue();

            int exit = CaplabCli.commandLine().execute("ingest", "--format", "jmeter", "--run", RUN,
                    "--file", jtl.toString(), "--bootstrap", stack.bootstrapServers());
            assertThat(exit).isZero();

            StackSql sql = new StackSql(stack);
            String jtlSamples = "FROM samples WHERE run_id = '" + RUN + "' AND kind = 'GAUGE' AND metric = ";
            String listenerRows = "FROM samples WHERE run_id = '" + RUN + "' AND " + LISTENER
                    + " AND metric = 'http.req.duration.ms' AND labels['transaction'] = '" + LABEL + "'";
            sql.await("SELECT (SELECT count() " + jtlSamples + "'http.req.duration.ms') AS jtl, "
                    + "(SELECT sum(summary_count) " + listenerRows + " AND labels['statut'] = 'all') AS listener",
                    r -> ((Number) r.getFirst().get("jtl")).longValue() >= rows.count()
                            && ((Number) r.getFirst().get("listener")).longValue() >= rows.count(),
                    Duration.ofSeconds(60));

            // the JTL: one sample per row, every figure as JMeter wrote it
            Map<String, Object> jtlFigures = sql.rows("SELECT count() AS n, sum(value) AS total, min(value) AS lo, "
                    + "max(value) AS hi, countIf(labels['name'] = '" + LABEL + "' AND labels['success'] = 'true') "
                    + "AS ok " + jtlSamples + "'http.req.duration.ms'").getFirst();
            assertThat(((Number) jtlFigures.get("n")).longValue()).isEqualTo(rows.count());
            assertThat(((Number) jtlFigures.get("ok")).longValue()).isEqualTo(rows.count());
            assertThat(((Number) jtlFigures.get("total")).doubleValue()).isEqualTo(rows.elapsedSumMillis());
            assertThat(((Number) jtlFigures.get("lo")).doubleValue()).isEqualTo(rows.elapsedMinMillis());
            assertThat(((Number) jtlFigures.get("hi")).doubleValue()).isEqualTo(rows.elapsedMaxMillis());
            assertThat(sql.count("SELECT count() " + jtlSamples + "'http.req.latency.ms'")).isEqualTo(rows.count());
            assertThat(sql.count("SELECT count() " + jtlSamples + "'http.req.connect.ms'")).isEqualTo(rows.count());

            // the backend listener: per-interval summaries of the same requests, nothing per request; weighted by
            // their counts the interval means add up to the JTL's total time
            Map<String, Object> all = sql.rows("SELECT sum(summary_count) AS n, "
                    + "sum(summary_mean * summary_count) AS total, min(summary_min) AS lo, max(summary_max) AS hi "
                    + listenerRows + " AND labels['statut'] = 'all' AND kind = 'SUMMARY'").getFirst();
            assertThat(((Number) all.get("n")).longValue()).isEqualTo(rows.count());
            assertThat(((Number) all.get("total")).doubleValue()).isCloseTo(rows.elapsedSumMillis(), within(1e-6));
            assertThat(((Number) all.get("lo")).doubleValue()).isEqualTo(rows.elapsedMinMillis());
            assertThat(((Number) all.get("hi")).doubleValue()).isEqualTo(rows.elapsedMaxMillis());
            assertThat(sql.count("SELECT sum(summary_count) " + listenerRows + " AND labels['statut'] = 'ok'"))
                    .isEqualTo(rows.count());
            assertThat(sql.count("SELECT sum(summary_count) FROM samples WHERE run_id = '" + RUN + "' AND " + LISTENER
                    + " AND metric = 'http.req.duration.ms' AND labels['transaction'] = 'all' "
                    + "AND labels['statut'] = 'all'")).isEqualTo(rows.count());
            assertThat(sql.count("SELECT sum(value) FROM samples WHERE run_id = '" + RUN + "' AND " + LISTENER
                    + " AND metric = 'http.req.failed.window.count'")).isZero();
            // nothing of the listener is stored as a gauge per field (jmeter.count, jmeter.pct90.0 ...)
            assertThat(sql.count("SELECT count() FROM samples WHERE run_id = '" + RUN + "' AND (metric IN "
                    + "('jmeter.count', 'jmeter.countError', 'jmeter.avg', 'jmeter.min', 'jmeter.max', 'jmeter.hit') "
                    + "OR metric LIKE 'jmeter.pct%')")).isZero();

            // the listener's test start and end markers are the run's annotations
            assertThat(sql.await("SELECT text FROM annotations FINAL WHERE run_id = '" + RUN + "' ORDER BY at",
                    r -> r.size() >= 2, Duration.ofSeconds(30))).extracting(r -> r.get("text"))
                    .containsExactly("caplab JmeterIT started", "caplab JmeterIT ended");
        }
    }
}
