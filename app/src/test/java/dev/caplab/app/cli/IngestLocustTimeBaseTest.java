package dev.caplab.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.app.RepoRoot;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code caplab ingest --format locust} on a run's {@code --csv} files read weeks after Locust wrote them (issue 13,
 * item 3): the totals files ({@code _stats.csv}, {@code _failures.csv}, {@code _exceptions.csv}) carry no time and
 * take the history's last timestamp, never the read time; without a history they are refused naming {@code -o at=}.
 */
class IngestLocustTimeBaseTest {

    private static final Instant READ_AT = Instant.parse("2027-01-15T00:00:00Z");
    /** The last row of cumulative_stats_history.csv: "1796230824,6,,Aggregated,...". */
    private static final Instant HISTORY_END = Instant.ofEpochSecond(1796230824L);
    private static final Pattern TIMESTAMP = Pattern.compile("\"timestamp\": ([^,]+),");

    @TempDir
    Path dir;

    private record Run(int exit, List<String> samples, String err) {
        List<String> timestamps() {
            return samples.stream().map(line -> {
                Matcher m = TIMESTAMP.matcher(line);
                assertThat(m.find()).as(line).isTrue();
                return m.group(1).replace("\"", "");
            }).toList();
        }
    }

    private Path copy(String... files) throws Exception {
        Path fixtures = RepoRoot.find().resolve("ingest/src/test/resources/locust");
        for (String file : files) {
            Files.copy(fixtures.resolve("cumulative" + file), dir.resolve("run" + file));
        }
        return dir.resolve("run");
    }

    private static Run ingest(String... args) {
        IngestCommand command = new IngestCommand();
        command.clock = Clock.fixed(READ_AT, ZoneOffset.UTC);
        CommandLine cli = new CommandLine(command);
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));
        cli.setExecutionExceptionHandler((e, line, parsed) -> {
            err.append(e.getMessage());
            return 1;
        });
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        int exit;
        try {
            exit = cli.execute(args);
        } finally {
            System.setOut(stdout);
        }
        return new Run(exit, printed.toString(StandardCharsets.UTF_8).lines().toList(), err.toString());
    }

    @Test
    void totalsTakeTheHistorysLastTimestampNotTheReadTime() throws Exception {
        Path prefix = copy("_stats_history.csv", "_stats.csv", "_failures.csv", "_exceptions.csv");

        Run run = ingest("--format", "locust", "--run", "r1", "--file", prefix + "_stats.csv", "--dry-run");

        assertThat(run.exit()).as(run.err()).isZero();
        List<String> times = run.timestamps();
        assertThat(times).doesNotContain(READ_AT.toString());
        // every sample is at a history row's second, 1796230814 .. 1796230824, the totals at the last one
        assertThat(times).allSatisfy(t -> assertThat(Instant.parse(t)).isBetween(
                Instant.ofEpochSecond(1796230814L), HISTORY_END));
        // samples only the totals files give: errors and exceptions counters, the stats file's cumulative rates
        assertThat(run.samples()).filteredOn(s -> s.contains("http.req.errors.count")
                        || s.contains("locust.exceptions.count")
                        || s.contains("http.reqs.per_s") && s.contains("\"window\": \"cumulative\""))
                .hasSize(1 + 1 + 4)
                .allSatisfy(s -> assertThat(s).contains("\"timestamp\": \"" + HISTORY_END + "\""));
    }

    /**
     * Followed live, Locust's history loses its unflushed last rows at exit while the totals hold the final counts:
     * the totals take the time Locust wrote them (their file's modification time), not the history's last row, so
     * the final request count is no jump inside the last step. Read after the fact, the same files keep the
     * history's time.
     */
    @Test
    void followedTotalsTakeTheTimeLocustWroteThem() throws Exception {
        Path prefix = copy("_stats_history.csv", "_stats.csv", "_failures.csv", "_exceptions.csv");
        Instant written = HISTORY_END.plusSeconds(7);
        for (String file : List.of("_stats.csv", "_failures.csv", "_exceptions.csv")) {
            Files.setLastModifiedTime(dir.resolve("run" + file), java.nio.file.attribute.FileTime.from(written));
        }

        Run followed = ingest("--format", "locust", "--run", "r1", "--file", prefix.toString(), "--follow",
                "--idle-exit", "1s", "--dry-run");
        Run afterwards = ingest("--format", "locust", "--run", "r1", "--file", prefix.toString(), "--dry-run");

        assertThat(followed.exit()).as(followed.err()).isZero();
        assertThat(afterwards.exit()).as(afterwards.err()).isZero();
        assertThat(followed.samples()).filteredOn(s -> s.contains("http.req.errors.count")
                        || s.contains("http.reqs.per_s") && s.contains("\"window\": \"cumulative\""))
                .hasSize(1 + 4).allSatisfy(s -> assertThat(s).contains("\"timestamp\": \"" + written + "\""));
        assertThat(followed.timestamps()).filteredOn(t -> !t.equals(written.toString()))
                .isNotEmpty().allSatisfy(t -> assertThat(Instant.parse(t)).isBeforeOrEqualTo(HISTORY_END));
        assertThat(afterwards.timestamps()).isNotEmpty()
                .allSatisfy(t -> assertThat(Instant.parse(t)).isBeforeOrEqualTo(HISTORY_END));
    }

    @Test
    void totalsWithoutHistoryAreRefusedNamingTheOption() throws Exception {
        Path prefix = copy("_stats.csv");

        Run run = ingest("--format", "locust", "--run", "r1", "--file", prefix.toString(), "--dry-run");

        assertThat(run.exit()).isNotZero();
        assertThat(run.samples()).isEmpty();
        assertThat(run.err()).contains("run_stats.csv").contains("_stats_history.csv").contains("-o at=");
    }

    @Test
    void anExplicitTimeWinsOverTheHistory() throws Exception {
        Path prefix = copy("_stats.csv");
        Instant at = Instant.parse("2026-12-02T10:15:00Z");

        Run run = ingest("--format", "locust", "--run", "r1", "--file", prefix.toString(), "-o", "at=" + at,
                "--dry-run");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.timestamps()).isNotEmpty().containsOnly(at.toString());
    }
}
