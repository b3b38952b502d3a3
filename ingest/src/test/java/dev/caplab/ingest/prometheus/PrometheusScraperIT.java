package dev.caplab.ingest.prometheus;

import static dev.caplab.ingest.adapter.Fixtures.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import dev.caplab.ingest.adapter.IntervalPublisher;
import dev.caplab.ingest.adapter.RecordingSink;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Scrapes real HTTP endpoints on loopback: a JDK server replaying a node_exporter page, and node_exporter itself. */
class PrometheusScraperIT {

    @Test
    void scrapesAtTheIntervalAndSurvivesAFailingScrape() throws Exception {
        byte[] page = text("prometheus/node_exporter-1.5.txt").getBytes(StandardCharsets.UTF_8);
        AtomicInteger requests = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/metrics", exchange -> {
            // the second scrape fails as a restarting exporter would
            int status = requests.incrementAndGet() == 2 ? 503 : 200;
            byte[] body = status == 200 ? page : new byte[0];
            exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
            exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        RecordingSink sink = new RecordingSink();
        List<IntervalPublisher.Problem> problems = new CopyOnWriteArrayList<>();
        URI target = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/metrics");
        try (PrometheusScraper scraper = new PrometheusScraper(target, PrometheusScraper.defaultSource(target),
                Duration.ofMillis(300), "run-1", sink, problems::add)) {
            scraper.start();
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (sink.batches().stream().filter(b -> !b.samples().isEmpty()).count() < 3
                    && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        } finally {
            server.stop(0);
        }

        assertThat(problems).anySatisfy(p -> assertThat(p.what()).contains("HTTP 503"));
        List<RecordingSink.Batch> full = sink.batches().stream().filter(b -> !b.samples().isEmpty()).toList();
        assertThat(full).hasSizeGreaterThanOrEqualTo(3);
        assertThat(full).allSatisfy(b -> {
            assertThat(b.runId()).isEqualTo("run-1");
            assertThat(b.adapter()).isEqualTo(PrometheusScraper.ADAPTER);
            assertThat(b.samples()).hasSize(full.getFirst().samples().size());
        });
        assertThat(full.get(0).samples().getFirst().getTimestamp())
                .isBefore(full.get(1).samples().getFirst().getTimestamp());
        assertThat(full.getFirst().samples().getFirst().getSource()).isEqualTo("127.0.0.1:" + target.getPort());
    }

    @Test
    void scrapesARealNodeExporter() throws Exception {
        Path binary = Path.of("/usr/bin/prometheus-node-exporter");
        assumeTrue(Files.isExecutable(binary), "Debian's prometheus-node-exporter is not installed");
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Process exporter = new ProcessBuilder(binary.toString(), "--web.listen-address=127.0.0.1:" + port,
                "--collector.disable-defaults", "--collector.cpu", "--collector.meminfo", "--collector.netdev")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            URI target = URI.create("http://127.0.0.1:" + port + "/metrics");
            PrometheusScraper scraper = new PrometheusScraper(target, "node", Duration.ofSeconds(1), "run-1",
                    new RecordingSink(), p -> { });
            List<Sample> samples = List.of();
            for (int attempt = 0; attempt < 50 && samples.isEmpty(); attempt++) {
                try {
                    samples = scraper.scrapeOnce().samples();
                } catch (ScrapeException notUpYet) {
                    Thread.sleep(100);
                }
            }
            assertThat(samples).anySatisfy(s -> {
                assertThat(s.getMetric()).isEqualTo("node_cpu_seconds_total");
                assertThat(s.getKind()).isEqualTo(SampleKind.COUNTER);
                assertThat(s.getLabels()).containsKeys("cpu", "mode");
            });
            assertThat(samples).anySatisfy(s -> assertThat(s.getMetric()).isEqualTo("node_memory_MemAvailable_bytes"));
        } finally {
            exporter.destroy();
            if (!exporter.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
                exporter.destroyForcibly();
            }
        }
    }
}
