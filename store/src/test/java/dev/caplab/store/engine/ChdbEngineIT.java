package dev.caplab.store.engine;

import dev.caplab.store.testing.EmbeddedClickHouse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The FFM binding on the real libchdb.so. */
class ChdbEngineIT {

    private final ChdbEngine engine = EmbeddedClickHouse.sharedEmbedded().engine().orElseThrow();

    @Test
    void aQueryReturnsFormattedBytesAndCounters() {
        QueryResult r = engine.query("SELECT number FROM system.numbers LIMIT 3", "CSV");
        assertThat(r.text()).isEqualTo("0\n1\n2\n");
        assertThat(r.rowsRead()).isEqualTo(3);
        assertThat(r.elapsedSeconds()).isPositive();
    }

    @Test
    void parametersAreBoundByTheEngine() {
        QueryResult r = engine.query("SELECT {s:String}, {n:Int64} * 2", "TabSeparated",
                Map.of("s", "a'b\\c", "n", "21"));
        assertThat(r.text()).isEqualTo("a\\'b\\\\c\t42\n");
    }

    @Test
    void errorsAreTypedWithTheirCodeAndTheEngineStaysUsable() {
        for (int i = 0; i < 200; i++) {
            assertThatThrownBy(() -> engine.query("SELEC 1", "CSV")).isInstanceOfSatisfying(ClickHouseException.class,
                    e -> assertThat(e.code()).isEqualTo(ClickHouseException.SYNTAX_ERROR));
        }
        assertThatThrownBy(() -> engine.query("SELECT * FROM system.no_such_table_anywhere", "CSV"))
                .isInstanceOfSatisfying(ClickHouseException.class, e -> assertThat(e.code()).isEqualTo(60));
        assertThat(engine.query("SELECT 1", "CSV").text()).isEqualTo("1\n");
    }

    @Test
    void theSameDataDirReturnsTheOpenEngineAndAnotherOneFails(@TempDir Path other) {
        assertThat(ChdbEngine.open(ChdbLibrary.locate(), engine.dataDir())).isSameAs(engine);
        assertThatThrownBy(() -> ChdbEngine.open(ChdbLibrary.locate(), other))
                .isInstanceOf(EngineException.class).hasMessageContaining("already open on " + engine.dataDir());
    }

    @Test
    void implicitNullChecksInJitCompiledCodeStillThrowAfterConnect() {
        // chDB left SIGSEGV at SIG_DFL; a compiled implicit null check then killed the JVM instead of throwing.
        int thrown = 0;
        for (int i = 0; i < 200_000; i++) {
            try {
                thrown += length(i % 100 == 0 ? null : "x") - 1;
            } catch (NullPointerException e) {
                thrown++;
            }
        }
        assertThat(thrown).isEqualTo(2_000);
    }

    private static int length(String s) {
        return s.length();
    }

    @Test
    void insertReadsDataWithEmptyLinesAndBinaryNewlinesCompletely() {
        engine.query("CREATE TABLE IF NOT EXISTS default.engine_it (s String) ENGINE = MergeTree ORDER BY s", "CSV");
        engine.query("TRUNCATE TABLE default.engine_it", "CSV");
        engine.insert("INSERT INTO default.engine_it (s)", "TSV", "a\n\n\nb\n".getBytes());
        assertThat(engine.query("SELECT count() FROM default.engine_it", "CSV").text()).isEqualTo("4\n");
    }

    @Test
    void bulkInsertsRunAtOnceAndBesideAStatementHoldingThePrimaryConnection() throws Exception {
        engine.query("CREATE TABLE IF NOT EXISTS default.engine_bulk_it (worker UInt8, n UInt64)"
                + " ENGINE = MergeTree ORDER BY (worker, n)", "CSV");
        engine.query("TRUNCATE TABLE default.engine_bulk_it", "CSV");
        int rows = 300_000;
        var pool = java.util.concurrent.Executors.newFixedThreadPool(3);
        try {
            // the primary connection is busy for ~6 s (one row a block, a second each: under the 3 s per block cap)
            var primary = pool.submit(() -> engine.query(
                    "SELECT sleepEachRow(1) FROM numbers(6) SETTINGS max_block_size = 1", "CSV"));
            Thread.sleep(200);
            List<java.util.concurrent.Future<Long>> bulk = new ArrayList<>();
            for (int worker = 1; worker <= 2; worker++) {
                int w = worker;
                bulk.add(pool.submit(() -> {
                    long start = System.nanoTime();
                    engine.bulkInsert("INSERT INTO default.engine_bulk_it (worker, n) SETTINGS async_insert = 0",
                            "TSV", out -> {
                                StringBuilder tsv = new StringBuilder();
                                for (int i = 0; i < rows; i++) {
                                    tsv.append(w).append('\t').append(i).append('\n');
                                }
                                out.write(tsv.toString().getBytes());
                            });
                    return System.nanoTime() - start;
                }));
            }
            for (var f : bulk) {
                assertThat(TimeUnit.NANOSECONDS.toMillis(f.get(30, TimeUnit.SECONDS)))
                        .as("a bulk insert waits for no statement on the primary connection").isLessThan(4_000);
            }
            assertThat(primary.isDone()).as("the primary connection's statement is still running").isFalse();
            primary.get(30, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertThat(engine.query("SELECT worker, count(), uniqExact(n) FROM default.engine_bulk_it GROUP BY worker"
                + " ORDER BY worker", "CSV").text()).isEqualTo("1,300000,300000\n2,300000,300000\n");
    }

    /**
     * chdb_connect leaves SIGSEGV at SIG_DFL for its 11–18 ms, and the JVM reaches safepoints through SIGSEGV: without
     * libjsig a child opening 30 connections under forced GCs died in 3 runs of 4. The build's test JVMs preload it
     * (pom.xml), as ./caplab and the image do, and the child inherits it: 30 connections, every one alive.
     */
    @Test
    void connectionsOpenWhileOtherThreadsStopForGcsWithoutKillingTheJvm(@TempDir Path dir) throws Exception {
        assertThat(ChdbEngine.signalChaining()).as("this test JVM has libjsig preloaded (LD_PRELOAD in pom.xml)")
                .isTrue();
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                ConnectUnderSafepointsChild.class.getName(), dir.toString(), "30");
        Path log = Files.createTempFile("chdb-child-", ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("child finished").isTrue();
        List<String> lines = Files.readAllLines(log);
        Files.delete(log);
        String output = "exit " + p.exitValue() + " (139 = SIGSEGV, 132 = SIGILL):\n" + String.join("\n", lines);
        assertThat(lines).as(output).contains("signalChaining=true", "opened 30");
        assertThat(p.exitValue()).as(output).isZero();
    }

    @Test
    void dataSurvivesARestartOfTheProcess(@TempDir Path dir) throws Exception {
        assertThat(runChild(dir, "write")).isEqualTo("wrote 1000");
        assertThat(runChild(dir, "read")).isEqualTo("read 1000 499500");
    }

    private static String runChild(Path dir, String mode) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                RestartChild.class.getName(), dir.toString(), mode));
        Path log = Files.createTempFile("chdb-child-", ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("child finished").isTrue();
        List<String> lines = Files.readAllLines(log);
        Files.delete(log);
        assertThat(p.exitValue()).as(String.join("\n", lines)).isZero();
        return lines.stream().filter(l -> l.startsWith("wrote") || l.startsWith("read")).findFirst().orElse("");
    }
}
