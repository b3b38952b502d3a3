package dev.caplab.app.tools;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.json.JsonMapper;

/**
 * The SUT process's CPU as caplab's {@code cpu.cores} (source {@code sut}), once a second through
 * {@code POST /api/v1/events}: what a process sampler on the server would send. Each sample is the process's CPU time
 * over the second before it divided by that second's wall time. A failed post fails the test at {@link #close}.
 */
final class SutCpuFeed implements AutoCloseable {

    static final String SOURCE = "sut";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final SutProcess sut;
    private final URI events;
    private final String runId;
    private final HttpClient http = HttpClient.newHttpClient();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final List<String> failures = new ArrayList<>();
    private long previousCpuNanos;
    private long previousWallNanos;
    private int posted;

    private SutCpuFeed(SutProcess sut, int httpPort, String runId) {
        this.sut = sut;
        this.events = URI.create("http://127.0.0.1:" + httpPort + "/api/v1/events");
        this.runId = runId;
    }

    static SutCpuFeed start(SutProcess sut, int httpPort, String runId) {
        SutCpuFeed feed = new SutCpuFeed(sut, httpPort, runId);
        feed.previousCpuNanos = sut.cpuTime().toNanos();
        feed.previousWallNanos = System.nanoTime();
        // fixed delay, not rate: on a starved machine a burst of catch-up samples would each cover a few ms
        feed.timer.scheduleWithFixedDelay(feed::sample, 1, 1, TimeUnit.SECONDS);
        return feed;
    }

    private void sample() {
        try {
            long cpu = sut.cpuTime().toNanos();
            long wall = System.nanoTime();
            double cores = (cpu - previousCpuNanos) / (double) (wall - previousWallNanos);
            previousCpuNanos = cpu;
            previousWallNanos = wall;
            Map<String, Object> sample = Map.of("timestamp", Instant.now().toString(), "source", SOURCE,
                    "metric", "cpu.cores", "kind", "GAUGE", "value", cores,
                    "labels", Map.of("pid", Long.toString(sut.pid())));
            String body = JSON.writeValueAsString(Map.of("runId", runId, "adapter", "it-process-sampler",
                    "samples", List.of(sample)));
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(events)
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 202) {
                failures.add(response.statusCode() + " " + response.body());
            } else {
                posted++;
            }
        } catch (Exception e) {
            failures.add(e.toString());
        }
    }

    /** How many samples caplab accepted. */
    int posted() {
        return posted;
    }

    @Override
    public void close() throws InterruptedException {
        timer.shutdown();
        timer.awaitTermination(15, TimeUnit.SECONDS);
        if (!failures.isEmpty()) {
            throw new AssertionError("SUT CPU samples refused: " + failures);
        }
    }
}
