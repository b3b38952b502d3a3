package dev.caplab.bench.ingest;

import dev.caplab.app.load.WriteClients;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Debian's VictoriaMetrics (single node, {@code apt-get install victoria-metrics}) started by hand on a loopback
 * ephemeral port with a throw-away data directory; closed = stopped. It takes InfluxDB line protocol on
 * {@code /write} and acknowledges once the rows are in its in-memory buffers (flushed to disk about a second later),
 * not after anything is durable.
 */
public final class VictoriaMetricsProcess implements AutoCloseable {

    private final Process process;
    private final int httpPort;

    private VictoriaMetricsProcess(Process process, int httpPort) {
        this.process = process;
        this.httpPort = httpPort;
    }

    public static VictoriaMetricsProcess start(Path dir) throws IOException, InterruptedException {
        int httpPort = dev.caplab.broker.Ports.claim("127.0.0.1", new String[] {"victoria-metrics http"},
                new int[] {0})[0];
        // the bench's points are stamped in 2024: a retention shorter than their age would drop them as too old
        Process process = new ProcessBuilder("victoria-metrics", "-storageDataPath=" + dir.resolve("data"),
                "-httpListenAddr=127.0.0.1:" + httpPort, "-retentionPeriod=100y", "-loggerLevel=ERROR")
                .redirectErrorStream(true).redirectOutput(dir.resolve("victoria-metrics.log").toFile()).start();
        VictoriaMetricsProcess vm = new VictoriaMetricsProcess(process, httpPort);
        try {
            vm.awaitHealth();
        } catch (IOException | RuntimeException e) {
            vm.close();
            throw e;
        }
        return vm;
    }

    /**
     * The fastest time-series database's door against the same bodies: a fresh victoria-metrics under {@code dir}
     * takes {@code bodies} from {@code clients} concurrent writers; prints its own count of rows its line-protocol
     * parser inserted as proof the points landed.
     */
    public static WriteClients.Result writeAll(Path dir, List<byte[]> bodies, int linesPerBatch, int clients)
            throws IOException, InterruptedException {
        try (VictoriaMetricsProcess vm = start(Files.createDirectories(dir))) {
            Duration cpuBefore = vm.cpu();
            WriteClients.Result result = WriteClients.run(vm.writeUri(), bodies, linesPerBatch, clients, null);
            Duration cpu = vm.cpu().minus(cpuBefore);
            System.out.printf(Locale.ROOT, "victoria-metrics CPU during the write: %.1f s = %.1f µs per sample%n",
                    cpu.toNanos() / 1e9, cpu.toNanos() / 1e3 / result.points());
            System.out.println("victoria-metrics " + vm.metric("vm_rows_inserted_total{type=\"influx\"}"));
            return result;
        }
    }

    /** CPU time victoria-metrics has used so far (user + system), as the OS reports it. */
    Duration cpu() {
        return process.toHandle().info().totalCpuDuration().orElse(Duration.ZERO);
    }

    public URI writeUri() {
        return URI.create("http://127.0.0.1:" + httpPort + "/write?precision=ns");
    }

    /** One line of its own /metrics page, by the series' exact name and labels. */
    String metric(String series) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + httpPort + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        return response.body().lines().filter(l -> l.startsWith(series + " ")).findFirst()
                .orElseThrow(() -> new IOException("victoria-metrics /metrics has no " + series));
    }

    private void awaitHealth() throws IOException, InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        IOException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("victoria-metrics exited with " + process.exitValue() + "; see its log");
            }
            try {
                HttpResponse<Void> health = http.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + httpPort + "/health")).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (health.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                last = e;
            }
            Thread.sleep(200);
        }
        throw new IOException("victoria-metrics did not answer /health within 30 s", last);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
