package dev.caplab.bench.store;

import dev.caplab.store.access.RowBinaryBuffer;
import dev.caplab.store.access.SampleRowBinary;
import dev.caplab.store.access.StoreDataSources;
import dev.caplab.store.engine.ChdbEngine;
import dev.caplab.store.engine.ChdbLibrary;
import dev.caplab.store.http.ClickHouseHttpServer;
import dev.caplab.store.http.HttpSettings;
import dev.caplab.store.row.SampleRow;
import dev.caplab.store.schema.Migrations;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * chDB's cost of parsing the samples table's rows as RowBinary (what the sink sends) against Native (columnar), the
 * same rows, batch by batch alternating between two tables of the samples schema, timed by the process's CPU (chDB
 * parses and writes parts on its own threads in this process). Native bytes are what chDB itself writes for the
 * RowBinary-inserted rows ({@code SELECT … FORMAT Native}), so the Java encoding cost of Native is not included:
 * this tells whether writing a Native encoder could pay. k6-like rows (ten labels, no summaries).
 * Arguments: [batches=30] [rowsPerBatch=50000].
 */
public final class InsertFormatBench {

    private static final String[] METRICS = {"http_req_duration", "http_req_waiting", "http_req_receiving",
        "http_req_sending", "http_reqs", "iteration_duration", "data_received", "vus"};
    private static final String[] URLS = {"https://test.k6.io/", "https://test.k6.io/news.php",
        "https://test.k6.io/contacts.php", "https://test.k6.io/flip_coin.php"};

    private static final java.util.Set<String> PLAIN = lowCardinalityAsString()
            ? java.util.Set.of("source", "metric", "kind") : java.util.Set.of();

    /** With -Dbench.native.java=true: both encodings done in Java within the timing (Native by the prototype). */
    private static final boolean JAVA_NATIVE = Boolean.getBoolean("bench.native.java");

    private static boolean lowCardinalityAsString() {
        return Boolean.getBoolean("bench.native.plain");
    }

    private InsertFormatBench() {
    }

    public static void main(String[] args) throws IOException {
        int batches = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int perBatch = args.length > 1 ? Integer.parseInt(args[1]) : 50_000;
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Path dir = Files.createTempDirectory("caplab-insert-format-bench-");
        ChdbEngine engine = ChdbEngine.open(ChdbLibrary.locate(), dir);
        try (ClickHouseHttpServer server = ClickHouseHttpServer.start(engine, HttpSettings.defaults().withPort(0));
             var pool = StoreDataSources.create(server.jdbcUrl("default"), server.settings().internal().user(),
                     server.settings().internal().password())) {
            Migrations.apply(pool, "bench");
            engine.query("CREATE TABLE bench.samples_native AS bench.samples", "TabSeparated");
            String cols = " (" + String.join(", ", SampleRowBinary.COLUMNS) + ")";
            long[] cpu = new long[2];
            long[] callerCpu = new long[2]; // the inserting thread alone: chDB parses the input on it
            long[] bytes = new long[2];
            for (int b = -3; b < batches; b++) {
                List<SampleRow> rows = rows("run-" + (b + 3), perBatch, (long) (b + 3) * perBatch);
                RowBinaryBuffer rb = new RowBinaryBuffer(perBatch * 256);
                SampleRowBinary.encode(rows, rb);
                byte[] rowBinary = Arrays.copyOf(rb.array(), rb.size());
                // Native bytes of the same rows, as chDB writes them: from a scratch table
                engine.query("TRUNCATE TABLE IF EXISTS bench.samples_scratch", "TabSeparated");
                engine.query("CREATE TABLE IF NOT EXISTS bench.samples_scratch AS bench.samples", "TabSeparated");
                engine.insert("INSERT INTO bench.samples_scratch" + cols, "RowBinary", rowBinary);
                // plain String for the LowCardinality columns, as a Java encoder would write them (chDB converts)
                byte[] nativeBytes = engine.query("SELECT " + String.join(", ", SampleRowBinary.COLUMNS.stream()
                        .map(c -> PLAIN.contains(c) ? "CAST(" + c + " AS String) AS " + c : c).toList())
                        + " FROM bench.samples_scratch", "Native").data();
                for (int k = 0; k < 2; k++) {
                    boolean rowFirst = (b & 1) == 0;
                    boolean useRowBinary = rowFirst == (k == 0);
                    long start = os.getProcessCpuTime();
                    long threadStart = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
                    if (JAVA_NATIVE) {
                        // encode included: SampleRowBinary against the Native prototype, from the same rows
                        RowBinaryBuffer enc = new RowBinaryBuffer(perBatch * 300);
                        if (useRowBinary) {
                            SampleRowBinary.encode(rows, enc);
                        } else {
                            NativeSamplesPrototype.encode(rows, enc);
                        }
                        engine.insert("INSERT INTO bench.samples" + (useRowBinary ? "" : "_native") + cols,
                                useRowBinary ? "RowBinary" : "Native", enc.array(), enc.size());
                    } else if (useRowBinary) {
                        engine.insert("INSERT INTO bench.samples" + cols, "RowBinary", rowBinary);
                    } else {
                        engine.insert("INSERT INTO bench.samples_native" + cols, "Native", nativeBytes);
                    }
                    long took = os.getProcessCpuTime() - start;
                    long threadTook = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - threadStart;
                    if (b >= 0) {
                        callerCpu[useRowBinary ? 0 : 1] += threadTook;
                        cpu[useRowBinary ? 0 : 1] += took;
                        bytes[useRowBinary ? 0 : 1] += useRowBinary ? rowBinary.length : nativeBytes.length;
                    }
                }
            }
            long rowsTotal = (long) batches * perBatch;
            String a = engine.query("SELECT count(), sum(cityHash64(run_id, ts, source, metric, value, labels)) FROM"
                    + " bench.samples WHERE run_id NOT IN ('run-0', 'run-1', 'run-2')", "TabSeparated").text().strip();
            String n = engine.query("SELECT count(), sum(cityHash64(run_id, ts, source, metric, value, labels)) FROM"
                    + " bench.samples_native WHERE run_id NOT IN ('run-0', 'run-1', 'run-2')", "TabSeparated").text()
                    .strip();
            System.out.printf(Locale.ROOT, "RESULT calling thread: rowbinary_cpu_ns_per_row=%.0f native_cpu_ns_per_row=%.0f%n",
                    callerCpu[0] / (double) rowsTotal, callerCpu[1] / (double) rowsTotal);
            System.out.printf(Locale.ROOT, "RESULT rows=%d batch=%d rowbinary_cpu_ns_per_row=%.0f (%.0f B/row)"
                    + " native_cpu_ns_per_row=%.0f (%.0f B/row) ratio=%.2f same_rows=%b%n", rowsTotal, perBatch,
                    cpu[0] / (double) rowsTotal, bytes[0] / (double) rowsTotal, cpu[1] / (double) rowsTotal,
                    bytes[1] / (double) rowsTotal, cpu[1] / (double) cpu[0], a.equals(n));
        } finally {
            engine.close();
            try (var paths = Files.walk(dir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static List<SampleRow> rows(String runId, int n, long first) {
        Instant t0 = Instant.parse("2024-03-01T08:00:00Z");
        List<SampleRow> rows = new ArrayList<>(n);
        for (long i = first; i < first + n; i++) {
            String url = URLS[(int) (i % URLS.length)];
            Map<String, String> labels = Map.of("expected_response", "true", "method", "GET", "name", url,
                    "proto", "HTTP/1.1", "run", runId, "scenario", "default", "status", i % 50 == 0 ? "500" : "200",
                    "step", Long.toString(i / 10_000 % 5), "tls_version", "tls1.3", "url", url);
            rows.add(SampleRow.of(runId, t0.plusMillis(i), "k6", METRICS[(int) (i % METRICS.length)], "GAUGE",
                    (i * 7919 % 100_000) / 100.0, labels));
        }
        return rows;
    }
}
