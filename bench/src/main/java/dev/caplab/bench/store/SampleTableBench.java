package dev.caplab.bench.store;

import dev.caplab.bench.pipeline.CpuAccount;
import dev.caplab.store.access.RowBinaryBuffer;
import dev.caplab.store.access.SampleRowBinary;
import dev.caplab.store.access.StoreDataSources;
import dev.caplab.store.engine.ChdbEngine;
import dev.caplab.store.engine.ChdbLibrary;
import dev.caplab.store.http.ClickHouseHttpServer;
import dev.caplab.store.http.HttpSettings;
import dev.caplab.store.row.SampleRow;
import dev.caplab.store.schema.Migrations;
import dev.caplab.store.schema.Table;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * chDB's CPU and disk per sample for the raw samples' tables alone, as the sink writes them (each batch's series,
 * then its points): RowBinary batches of
 * pipeline-bench-shaped rows (k6 lines: 8 metrics, 8 labels, one source, 25 µs apart, two runs interleaved) inserted
 * with the sink's settings and a dedup token each, then a wait until the engine's merges are done. Prints CPU per
 * sample by thread group (chDB's inserts run on {@code ThreadPool}, its merges on {@code MergeMutate}), the
 * {@code system.events} of inserts and merges, and the table's bytes on disk per sample by column.
 *
 * <p>Args: total rows (2,000,000), rows per insert (200,000), an optional SQL file run on the {@code bench}
 * database after the migrations (to A/B a schema, e.g. a draft migration), optional extra insert settings
 * ({@code "optimize_on_insert = 0, max_insert_threads = 1"}). Run one variant per JVM, back to back.
 */
public final class SampleTableBench {

    private static final String DB = "bench";
    private static final String[] METRICS = {"http_req_duration", "http_req_waiting", "http_req_receiving",
        "http_req_sending", "http_reqs", "iteration_duration", "data_received", "vus"};
    private static final String[] URLS = {"https://test.k6.io/", "https://test.k6.io/news.php",
        "https://test.k6.io/contacts.php", "https://test.k6.io/flip_coin.php"};
    private static final List<String> EVENTS = List.of("InsertedRows", "MergeTreeDataWriterRows",
            "MergeTreeDataWriterCompressedBytes", "Merge", "MergedRows", "MergeSourceParts", "MergeTotalMilliseconds");

    private SampleTableBench() {
    }

    public static void main(String[] args) throws Exception {
        int total = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        String sqlFile = args.length > 2 && !args[2].isBlank() ? args[2] : null;
        String extraSettings = args.length > 3 && !args[3].isBlank() ? ", " + args[3] : "";
        Path dir = Files.createTempDirectory("caplab-sample-table-bench-");
        ChdbEngine engine = ChdbEngine.open(ChdbLibrary.locate(), dir);
        try (ClickHouseHttpServer server = ClickHouseHttpServer.start(engine, HttpSettings.defaults().withPort(0));
             var pool = StoreDataSources.create(server.jdbcUrl("default"), server.settings().internal().user(),
                     server.settings().internal().password())) {
            Migrations.apply(pool, DB);
            if (sqlFile != null) {
                try (var dbPool = StoreDataSources.create(server.jdbcUrl(DB), server.settings().internal().user(),
                        server.settings().internal().password());
                     var c = dbPool.getConnection(); var s = c.createStatement()) {
                    for (String statement : Files.readString(Path.of(sqlFile)).split(";\\s*(\\n|$)")) {
                        String sql = statement.lines().filter(l -> !l.strip().startsWith("--"))
                                .reduce("", (a, b) -> a + "\n" + b).strip();
                        if (!sql.isEmpty()) {
                            s.execute(sql);
                        }
                    }
                }
            }
            System.out.println(engine.query("SHOW CREATE TABLE " + Table.SAMPLE_POINTS.in(DB), "TSVRaw").text().strip());
            String settings = " SETTINGS async_insert = 0, insert_deduplicate = 1" + extraSettings
                    + ", insert_deduplication_token = ";
            Heads head = new Heads("INSERT INTO " + Table.SAMPLE_SERIES.in(DB) + " ("
                    + String.join(", ", SampleRowBinary.SERIES_COLUMNS) + ")" + settings,
                    "INSERT INTO " + Table.SAMPLE_POINTS.in(DB) + " ("
                    + String.join(", ", SampleRowBinary.POINT_COLUMNS) + ")" + settings,
                    "INSERT INTO " + Table.SAMPLE_POINTS.in(DB) + " ("
                    + String.join(", ", SampleRowBinary.PLAIN_POINT_COLUMNS) + ")" + settings);
            System.out.println(ALL_POINT_COLUMNS ? "points: every column (-Dbench.allPointColumns=true)"
                    : "points: as the sink writes them (a batch without summaries: the plain columns)");
            RowBinaryBuffer encoded = new RowBinaryBuffer(64 << 20);
            // Warm-up: the JIT of the encoder, the engine's first part; not counted.
            insert(engine, head, "'warm'", encoded, rows("warm-run", 0, 20_000));
            waitForMerges(engine);
            Map<String, Long> before = events(engine);
            CpuAccount cpu = CpuAccount.start();
            long insertNanos = 0;
            for (int first = 0, n = 0; first < total; first += batch, n++) {
                List<SampleRow> rows = rows(n % 2 == 0 ? "bench-run-a" : "bench-run-b", first,
                        Math.min(batch, total - first));
                long t = System.nanoTime();
                insert(engine, head, "'batch-" + n + "'", encoded, rows);
                insertNanos += System.nanoTime() - t;
            }
            long mergeWait = System.nanoTime();
            waitForMerges(engine);
            System.out.printf(Locale.ROOT, "RESULT rows=%d batch=%d insert_wall=%.2fs merge_wait=%.2fs settings=%s%n",
                    total, batch, insertNanos / 1e9, (System.nanoTime() - mergeWait) / 1e9, extraSettings);
            cpu.print(System.out, total, "µs", "sample", 1e3, 2);
            Map<String, Long> after = events(engine);
            for (String e : EVENTS) {
                long d = after.getOrDefault(e, 0L) - before.getOrDefault(e, 0L);
                System.out.printf(Locale.ROOT, "  %-36s %,15d  (%.3f per sample)%n", e, d, (double) d / total);
            }
            if (Boolean.getBoolean("bench.allEvents")) {
                after.forEach((e, v) -> {
                    long d = v - before.getOrDefault(e, 0L);
                    if (d != 0) {
                        System.out.printf(Locale.ROOT, "  EVENT %-50s %,18d%n", e, d);
                    }
                });
            }
            System.out.print(engine.query("SELECT level, count(), sum(rows), formatReadableSize(sum(bytes_on_disk))"
                    + " FROM system.parts WHERE database = '" + DB + "' AND table = '" + Table.SAMPLE_POINTS
                    + "' AND active GROUP BY level ORDER BY level", "PrettyCompactNoEscapes").text());
            String stored = engine.query("SELECT count() FROM " + Table.SAMPLE_POINTS.in(DB), "TSV").text().strip();
            long bytes = Long.parseLong(engine.query("SELECT sum(bytes_on_disk) FROM system.parts WHERE database = '"
                    + DB + "' AND table IN ('" + Table.SAMPLE_POINTS + "', '" + Table.SAMPLE_SERIES + "') AND active",
                    "TSV").text().strip());
            System.out.printf(Locale.ROOT, "DISK rows=%s bytes_on_disk=%,d = %.2f B/sample%n", stored, bytes,
                    (double) bytes / Long.parseLong(stored));
            System.out.print(engine.query("SELECT name, type, compression_codec,"
                    + " round(data_compressed_bytes / " + stored + ", 3) AS b_per_sample,"
                    + " round(data_uncompressed_bytes / greatest(data_compressed_bytes, 1), 1) AS ratio"
                    + " FROM system.columns WHERE database = '" + DB + "' AND table = '" + Table.SAMPLE_POINTS + "'",
                    "PrettyCompactNoEscapes").text());
        } finally {
            engine.close();
            try (var paths = Files.walk(dir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Writes every point column even for batches without summaries, as the sink did before (an A/B). */
    private static final boolean ALL_POINT_COLUMNS = Boolean.getBoolean("bench.allPointColumns");

    /** The inserts of a batch, as the sink makes them, without their token. */
    private record Heads(String series, String points, String plainPoints) {
    }

    /** A batch as the sink writes it: its series, then its points, each under the batch's token. */
    private static void insert(ChdbEngine engine, Heads head, String token, RowBinaryBuffer encoded,
            List<SampleRow> rows) {
        encoded.reset();
        SampleRowBinary.encodeSeries(rows, encoded);
        engine.insert(head.series() + token, "RowBinary", encoded.array(), encoded.size());
        encoded.reset();
        if (ALL_POINT_COLUMNS || SampleRowBinary.hasSummaries(rows)) {
            SampleRowBinary.encodePoints(rows, encoded);
            engine.insert(head.points() + token, "RowBinary", encoded.array(), encoded.size());
        } else {
            SampleRowBinary.encodePlainPoints(rows, encoded);
            engine.insert(head.plainPoints() + token, "RowBinary", encoded.array(), encoded.size());
        }
    }

    /** Until no merge has run for 3 s (the merge selector waits between attempts). */
    private static void waitForMerges(ChdbEngine engine) throws InterruptedException {
        long quietSince = System.nanoTime();
        while (System.nanoTime() - quietSince < 3_000_000_000L) {
            Thread.sleep(200);
            String running = engine.query("SELECT count() FROM system.merges", "TSV").text().strip();
            if (!"0".equals(running)) {
                quietSince = System.nanoTime();
            }
        }
    }

    private static Map<String, Long> events(ChdbEngine engine) {
        Map<String, Long> out = new java.util.HashMap<>();
        engine.query("SELECT event, value FROM system.events", "TSV").text().lines().forEach(l -> {
            String[] f = l.split("\t");
            out.put(f[0], Long.parseLong(f[1]));
        });
        return out;
    }

    /** Rows [first, first+n) of a k6-like run as the line-protocol parser maps them (8 labels, source influx). */
    static List<SampleRow> rows(String runId, long first, int n) {
        Instant t0 = Instant.parse("2026-12-04T08:00:00Z");
        List<Map<String, String>> labelSets = new ArrayList<>();
        for (int u = 0; u < URLS.length; u++) {
            for (String status : List.of("200", "500")) {
                labelSets.add(Map.of("expected_response", "true", "method", "GET", "name", URLS[u],
                        "proto", "HTTP/1.1", "scenario", "default", "status", status, "tls_version", "tls1.3",
                        "url", URLS[u]));
            }
        }
        List<SampleRow> out = new ArrayList<>(n);
        for (long i = first; i < first + n; i++) {
            int u = (int) (i % URLS.length);
            Map<String, String> labels = labelSets.get(u * 2 + (i % 50 == 0 ? 1 : 0));
            out.add(SampleRow.of(runId, t0.plusNanos(i * 25_000L), "influx", METRICS[(int) (i % METRICS.length)],
                    "GAUGE", (i * 7919 % 100_000) / 100.0, labels));
        }
        return out;
    }
}
