package dev.caplab.app.recipes;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's real node_exporter ({@code apt-get install prometheus-node-exporter}) on a loopback port, with only the
 * CPU, memory and network collectors so its own scrape cost stays small. Missing: the test fails under CI=true
 * (scripts/install-prereqs.sh installs it) and is skipped with that hint otherwise.
 */
final class NodeExporter implements AutoCloseable {

    private static final Path BINARY = Path.of("/usr/bin/prometheus-node-exporter");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Process process;
    private final URI metrics;

    private NodeExporter(Process process, URI metrics) {
        this.process = process;
        this.metrics = metrics;
    }

    static NodeExporter start(Path logDir) throws Exception {
        if (!Files.isExecutable(BINARY)) {
            String hint = BINARY + " is missing: apt-get install prometheus-node-exporter (scripts/install-prereqs.sh)";
            if ("true".equals(System.getenv("CI"))) {
                Assertions.fail(hint);
            }
            Assumptions.abort(hint);
        }
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        Process process = new ProcessBuilder(List.of(BINARY.toString(), "--web.listen-address=127.0.0.1:" + port,
                "--collector.disable-defaults", "--collector.cpu", "--collector.meminfo", "--collector.netdev"))
                .redirectErrorStream(true).redirectOutput(logDir.resolve("node_exporter.log").toFile()).start();
        NodeExporter exporter = new NodeExporter(process, URI.create("http://127.0.0.1:" + port + "/metrics"));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try {
                exporter.scrape();
                return exporter;
            } catch (IOException e) {
                if (System.nanoTime() > deadline || !process.isAlive()) {
                    exporter.close();
                    throw new IllegalStateException("node_exporter did not answer on " + exporter.metrics, e);
                }
                Thread.sleep(100);
            }
        }
    }

    /** One scrape, as the exposition text node_exporter sent. */
    String scrape() throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(5))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("node_exporter answered " + response.statusCode());
        }
        return response.body();
    }

    /**
     * A scrape with its time written on every sample line (the exposition format's optional timestamp, as
     * Prometheus' /federate writes it), so a file ingested later keeps the time each value was read.
     */
    String scrapeStamped() throws IOException, InterruptedException {
        long atMillis = System.currentTimeMillis();
        StringBuilder out = new StringBuilder();
        for (String line : scrape().split("\n")) {
            out.append(line);
            if (!line.isBlank() && !line.startsWith("#")) {
                out.append(' ').append(atMillis);
            }
            out.append('\n');
        }
        return out.toString();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroyForcibly();
    }
}
