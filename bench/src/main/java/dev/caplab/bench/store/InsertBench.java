package dev.caplab.bench.store;

import dev.caplab.store.access.EngineInserts;
import dev.caplab.store.access.SampleRepository;
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
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Inserts the same sample rows into the embedded store twice, each batch as its series and its points: through
 * JDBC over the HTTP interface (what a sink beside a ClickHouse server does) and as direct
 * {@code INSERT ... FORMAT RowBinary} on the binding (what the embedded sink does), batch by batch in alternation;
 * prints rows/s of each and their ratio.
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
             var pool = StoreDataSources.create(server.jdbcUrl("default"), server.settings().internal().user(),
                     server.settings().internal().password())) {
            Migrations.apply(pool, "bench");
            try (var benchPool = StoreDataSources.create(server.jdbcUrl("bench"), server.settings().internal().user(),
                    server.settings().internal().password())) {
                SampleRepository samples = new SampleRepository(benchPool);
                SampleRepository samplesDirect = new SampleRepository(benchPool, new EngineInserts(engine, "bench"));
                Consumer<List<SampleRow>> jdbc = rows -> samples.insertBatch(rows, null);
                Consumer<List<SampleRow>> direct = rows -> samplesDirect.insertBatch(rows, null);
                // Warm-up: JIT both paths and create the first parts before timing.
                interleaved(generate("warm-j", 50_000), generate("warm-d", 50_000), batch, jdbc, direct, engine);
                double[] rates = interleaved(generate("run-jdbc", total), generate("run-direct", total), batch, jdbc,
                        direct, engine);
                System.out.printf("RESULT rows=%d batch=%d jdbc_rows_per_s=%.0f direct_rows_per_s=%.0f"
                        + " cost_ratio_jdbc_over_direct=%.2f%n", total, batch, rates[0], rates[1],
                        rates[1] / rates[0]);
            }
        } finally {
            engine.close();
            try (var paths = Files.walk(dir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * Alternates one batch of each path and times each path's batches alone: on a shared, noisy machine both see
     * the same load (a burst lands on neighbouring batches of both), so their ratio is fair. Returns rows/s of each.
     */
    private static double[] interleaved(List<SampleRow> viaJdbc, List<SampleRow> viaDirect, int batch,
                                        Consumer<List<SampleRow>> jdbc, Consumer<List<SampleRow>> direct,
                                        ChdbEngine engine) {
        long[] nanos = new long[2];
        for (int i = 0; i < viaJdbc.size(); i += batch) {
            boolean jdbcFirst = (i / batch) % 2 == 0;
            for (int k = 0; k < 2; k++) {
                boolean useJdbc = jdbcFirst == (k == 0);
                List<SampleRow> rows = useJdbc ? viaJdbc : viaDirect;
                long start = System.nanoTime();
                (useJdbc ? jdbc : direct).accept(rows.subList(i, Math.min(rows.size(), i + batch)));
                nanos[useJdbc ? 0 : 1] += System.nanoTime() - start;
            }
        }
        double[] rates = new double[2];
        String[] names = {"jdbc-http", "direct-ffm"};
        List<List<SampleRow>> inputs = List.of(viaJdbc, viaDirect);
        for (int p = 0; p < 2; p++) {
            List<SampleRow> rows = inputs.get(p);
            String runId = rows.getFirst().runId();
            long stored = Long.parseLong(engine.query("SELECT count() FROM " + Table.SAMPLES.in("bench")
                    + " WHERE run_id = {r:String}",
                    "TabSeparated", Map.of("r", runId)).text().strip());
            if (stored != rows.size()) {
                throw new IllegalStateException(names[p] + " stored " + stored + " of " + rows.size() + " rows");
            }
            rates[p] = rows.size() / (nanos[p] / 1e9);
            System.out.printf("%-14s %,10d rows in %6.2f s = %,12.0f rows/s%n", names[p], rows.size(), nanos[p] / 1e9,
                    rates[p]);
        }
        return rates;
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
