package dev.caplab.app.up;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.caplab.app.MeasuresHost;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code caplab up} runs the threads that catch up from Kafka at a lower priority than ingest's, as Linux itself
 * reports them ({@code /proc/self/task/<tid>/stat}, read here independently of {@link BackgroundPriority}).
 */
@MeasuresHost
class BackgroundPriorityIT {

    private static final Path TASKS = Path.of("/proc/self/task");

    @TempDir
    Path dataDir;

    @Test
    void streamsSinkAndChdbRunNicerThanIngestAndTheBroker() throws Exception {
        assumeTrue(Files.isDirectory(TASKS), "Linux only");
        UpSettings settings = new UpSettings(dataDir, "127.0.0.1", 0, 0, 0, false, null, List.of());
        assertThat(settings.backgroundNice()).isEqualTo(10);
        try (EmbeddedStack stack = EmbeddedStack.start(settings, new PrintStream(new ByteArrayOutputStream()))) {
            // a write makes every role busy at least once: the HTTP workers, the broker, streams, sink and chDB
            HttpResponse<String> write = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + stack.httpPort() + "/write?db=caplab"))
                    .POST(HttpRequest.BodyPublishers.ofString("cpu,host=a value=1 1700000000000000000\n"
                            + "cpu,host=b value=2 1700000001000000000\n")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(write.statusCode()).as(write.body()).isEqualTo(204);

            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            List<Task> tasks = tasks();
            while (!backgroundLowered(tasks) && System.nanoTime() < deadline) {
                Thread.sleep(200);
                tasks = tasks();
            }
            String seen = tasks.stream().map(Task::toString).sorted().distinct().collect(Collectors.joining(", "));
            for (String background : List.of("caplab-sink", "caplab-streams-", "MergeMutate")) {
                assertThat(tasks).as(seen).anyMatch(t -> t.comm().startsWith(background));
                assertThat(tasks).as(seen).filteredOn(t -> t.comm().startsWith(background))
                        .allMatch(t -> t.nice() == 10);
            }
            for (String foreground : List.of("http-nio-", "data-plane-kafk")) {
                assertThat(tasks).as(seen).anyMatch(t -> t.comm().startsWith(foreground));
                assertThat(tasks).as(seen).filteredOn(t -> t.comm().startsWith(foreground))
                        .allMatch(t -> t.nice() == 0);
            }
        }
    }

    @Test
    void anOutOfRangeNiceIsRefusedByName() {
        UpSettings settings = new UpSettings(dataDir, "127.0.0.1", 0, 0, 0, false, null, List.of());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> settings.withBackgroundNice(20))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--background-nice")
                .hasMessageContaining("20");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> settings.withBackgroundNice(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--background-nice");
    }

    private static boolean backgroundLowered(List<Task> tasks) {
        return tasks.stream().anyMatch(t -> t.comm().startsWith("caplab-streams-"))
                && tasks.stream().anyMatch(t -> t.comm().startsWith("MergeMutate"))
                && tasks.stream().filter(t -> t.comm().startsWith("caplab-s") || t.comm().startsWith("MergeMutate"))
                .allMatch(t -> t.nice() == 10);
    }

    private record Task(String comm, int nice) {
        @Override
        public String toString() {
            return comm + "@" + nice;
        }
    }

    private static List<Task> tasks() throws IOException {
        List<Task> tasks = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(TASKS)) {
            for (Path dir : dirs) {
                try {
                    String comm = Files.readString(dir.resolve("comm")).strip();
                    String stat = Files.readString(dir.resolve("stat"));
                    // after "tid (comm) " the fields start at the state, field 3 of proc(5); nice is field 19
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    tasks.add(new Task(comm, Integer.parseInt(fields[19 - 3])));
                } catch (NoSuchFileException ended) {
                    // the thread ended between the listing and the read
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return tasks;
    }
}
