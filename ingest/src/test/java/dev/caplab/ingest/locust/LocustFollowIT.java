package dev.caplab.ingest.locust;

import static dev.caplab.ingest.adapter.Fixtures.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.ingest.adapter.AdapterOptions;
import dev.caplab.ingest.adapter.InputPublisher;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.ingest.adapter.RecordingSink;
import dev.caplab.schema.event.Sample;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Follows a {@code _stats_history.csv} while another thread writes it the way Locust does (rows appended and
 * flushed, sometimes mid-row), then truncates it (Locust restarted with the same prefix) and rotates it.
 */
class LocustFollowIT {

    @TempDir
    Path dir;

    @Test
    void followsAppendsPartialRowsTruncationAndRotation() throws Exception {
        String history = text("locust/windowed_stats_history.csv");
        List<String> lines = history.lines().toList();
        Path file = dir.resolve("run_stats_history.csv");
        RecordingSink sink = new RecordingSink();
        List<String> errors = new CopyOnWriteArrayList<>();
        AtomicBoolean writing = new AtomicBoolean(true);

        Thread writer = Thread.ofPlatform().start(() -> {
            try {
                try (OutputStream out = Files.newOutputStream(file)) {
                    for (String line : lines) {
                        // Python's csv module ends rows with \r\n; half a row is flushed now and then
                        byte[] row = (line + "\r\n").getBytes(StandardCharsets.UTF_8);
                        out.write(row, 0, row.length / 2);
                        out.flush();
                        Thread.sleep(3);
                        out.write(row, row.length / 2, row.length - row.length / 2);
                        out.flush();
                    }
                }
                Thread.sleep(300);
                // restart: Locust opens the history with "w" and writes its header again
                Files.writeString(file, String.join("\r\n", lines.subList(0, 5)) + "\r\n",
                        StandardOpenOption.TRUNCATE_EXISTING);
                Thread.sleep(300);
                Path next = dir.resolve("next.csv");
                Files.writeString(next, String.join("\r\n", lines.subList(0, 3)) + "\r\n");
                Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                Thread.sleep(300);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            } finally {
                writing.set(false);
            }
        });

        InputPublisher publisher = new InputPublisher(LocustAdapter.of(AdapterOptions.NONE), "run-1", sink,
                errors::add);
        InputPublisher.Outcome outcome = publisher.follow(file, Duration.ofMillis(20), writing::get,
                Clock.systemUTC());
        writer.join();

        assertThat(errors).isEmpty();
        assertThat(outcome.rejected()).isZero();
        long rows = sink.samples().stream().filter(s -> s.getMetric().equals(MetricNames.HTTP_REQS_COUNT)).count();
        // every data row once, then 4 after the truncation and 2 after the rotation
        assertThat(rows).isEqualTo((lines.size() - 1) + 4 + 2);
        assertThat(outcome.samples()).isEqualTo(sink.samples().size());
        List<Sample> windowed = sink.samples().stream()
                .filter(s -> "window".equals(s.getLabels().get("window"))).toList();
        assertThat(windowed).isNotEmpty().allSatisfy(s -> assertThat(s.getTimestamp())
                .isBetween(Instant.ofEpochSecond(1796230834L), Instant.ofEpochSecond(1796230900L)));
    }
}
