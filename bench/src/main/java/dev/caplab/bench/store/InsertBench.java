package dev.caplab.bench.store;

import dev.caplab.store.access.SampleRepository;
import dev.caplab.store.access.StoreDataSources;
import dev.caplab.store.engine.ChdbEngine;
import dev.caplab.store.engine.ChdbLibrary;
import dev.caplab.store.http.ClickHouseHttpServer;
import dev.caplab.store.http.HttpSettings;
import dev.caplab.store.row.SampleRow;
import dev.caplab.store.schema.Migrations;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Inserts the same sample rows into the embedded store twice: through JDBC over the HTTP interface (what the
 * application does) and as a direct {@code INSERT ... FORMAT RowBinary} on the binding; prints rows/s and ratio.
 *
 * <p>Run: {@code ./mvnw -B -q -pl bench -am install -DskipTests && ./mvnw -B -q -pl bench exec:exec@insert-bench}
 * (args: total rows, batch rows; default 2,000,000 and 100,000).
 */
public final class InsertBench {

    private InsertBench() {
    }

    public static void main(String[] args) throws IOException {
        int total = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        Path dir = Files.createTempDirectory("caplab-insert-bench-");
        ChdbEngine engine = ChdbEngine.open(ChdbLibrary.locate(), dir);
        try (ClickHouseHttpServer server = ClickHouseHttpServer.start(engine, HttpSettings.defaults().withPort(0));
             var pool = StoreDataSources.create(server.jdbcUrl("default"), "default", "")) {
            Migrations.apply(pool, "bench");
            try (var benchPool = StoreDataSources.create(server.jdbcUrl("bench"), "default", "")) {
                SampleRepository samples = new SampleRepository(benchPool);
                SampleRowBinary encoder = new SampleRowBinary();
                Consumer<List<SampleRow>> jdbc = rows -> samples.insertBatch(rows, null);
                Consumer<List<SampleRow>> direct = rows -> engine.insert(
                        "INSERT INTO bench.samples (" + SampleRowBinary.COLUMNS + ")", "RowBinary", encoder.encode(rows));
                // Warm-up: JIT both paths and create the first parts before timing.
                measure("warmup-jdbc", generate("warm-j", 50_000), batch, jdbc, engine);
                measure("warmup-direct", generate("warm-d", 50_000), batch, direct, engine);
                double jdbcRate = measure("jdbc-http", generate("run-jdbc", total), batch, jdbc, engine);
                double directRate = measure("direct-ffm", generate("run-direct", total), batch, direct, engine);
                System.out.printf("RESULT rows=%d batch=%d jdbc_rows_per_s=%.0f direct_rows_per_s=%.0f"
                        + " cost_ratio_jdbc_over_direct=%.2f%n", total, batch, jdbcRate, directRate,
                        directRate / jdbcRate);
            }
        } finally {
            engine.close();
            try (var paths = Files.walk(dir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static double measure(String name, List<SampleRow> rows, int batch, Consumer<List<SampleRow>> insert,
                                  ChdbEngine engine) {
        long start = System.nanoTime();
        for (int i = 0; i < rows.size(); i += batch) {
            insert.accept(rows.subList(i, Math.min(rows.size(), i + batch)));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        String runId = rows.getFirst().runId();
        long stored = Long.parseLong(engine.query("SELECT count() FROM bench.samples WHERE run_id = {r:String}",
                "TabSeparated", Map.of("r", runId)).text().strip());
        if (stored != rows.size()) {
            throw new IllegalStateException(name + " stored " + stored + " of " + rows.size() + " rows");
        }
        double rate = rows.size() / seconds;
        System.out.printf("%-14s %,10d rows in %6.2f s = %,12.0f rows/s%n", name, rows.size(), seconds, rate);
        return rate;
    }

    /** k6/host-sampler-like rows: a few sources and metrics, 1 ms apart, two labels, no summaries. */
    static List<SampleRow> generate(String runId, int n) {
        SplittableRandom random = new SplittableRandom(42);
        String[] sources = {"vm-1", "vm-2", "sfu-1", "k6"};
        String[] metrics = {"cpu.cores", "mem.bytes", "net.tx.bytes", "http_req_duration"};
        List<Map<String, String>> labels = List.of(Map.of("step", "0", "core", "0"), Map.of("step", "0", "core", "1"));
        Instant t0 = Instant.parse("2026-05-01T00:00:00Z");
        List<SampleRow> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            rows.add(SampleRow.of(runId, t0.plusMillis(i), sources[i & 3], metrics[(i >> 2) & 3], "GAUGE",
                    random.nextDouble() * 8, labels.get(i & 1)));
        }
        return rows;
    }
}
