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

/** Debian's InfluxDB 1.6 started by hand on loopback with a throw-away config and data directory; closed = stopped. */
public final class InfluxdProcess implements AutoCloseable {

    private final Process process;
    private final int httpPort;

    private InfluxdProcess(Process process, int httpPort) {
        this.process = process;
        this.httpPort = httpPort;
    }

    public static InfluxdProcess start(Path dir, String database) throws IOException, InterruptedException {
        int[] ports = dev.caplab.broker.Ports.claim("127.0.0.1", new String[] {"influxd http", "influxd rpc"},
                new int[] {0, 0});
        int httpPort = ports[0];
        int rpcPort = ports[1];
        Path config = dir.resolve("influxdb.conf");
        Files.writeString(config, """
                reporting-disabled = true
                bind-address = "127.0.0.1:%d"
                [meta]
                  dir = "%s/meta"
                [data]
                  dir = "%s/data"
                  wal-dir = "%s/wal"
                  query-log-enabled = false
                [http]
                  bind-address = "127.0.0.1:%d"
                  log-enabled = false
                  max-body-size = 0
                [monitor]
                  store-enabled = false
                """.formatted(rpcPort, dir, dir, dir, httpPort));
        Process process = new ProcessBuilder("influxd", "-config", config.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("influxd.log").toFile()).start();
        InfluxdProcess influxd = new InfluxdProcess(process, httpPort);
        try {
            influxd.awaitPing();
            influxd.query("CREATE DATABASE " + database);
        } catch (IOException | RuntimeException e) {
            influxd.close();
            throw e;
        }
        return influxd;
    }

    /**
     * The reference every ingest bench compares against: a fresh influxd under {@code dir} takes {@code bodies}
     * from {@code clients} concurrent writers; prints its own count of one measurement as proof the points landed.
     */
    public static WriteClients.Result writeAll(Path dir, List<byte[]> bodies, int linesPerBatch, int clients)
            throws IOException, InterruptedException {
        try (InfluxdProcess influxd = start(Files.createDirectories(dir), "bench")) {
            Duration cpuBefore = influxd.cpu();
            WriteClients.Result result = WriteClients.run(influxd.writeUri("bench"), bodies, linesPerBatch, clients,
                    null);
            Duration cpu = influxd.cpu().minus(cpuBefore);
            System.out.printf(java.util.Locale.ROOT, "influxd CPU during the write: %.1f s = %.1f µs per sample%n",
                    cpu.toNanos() / 1e9, cpu.toNanos() / 1e3 / result.points());
            System.out.println("influxd count(http_reqs): " + influxd.count("bench", "http_reqs"));
            return result;
        }
    }

    /** CPU time influxd has used so far (user + system), as the OS reports it. */
    Duration cpu() {
        return process.toHandle().info().totalCpuDuration().orElse(Duration.ZERO);
    }

    public URI writeUri(String database) {
        return URI.create("http://127.0.0.1:" + httpPort + "/write?db=" + database + "&precision=ns");
    }

    /** Points InfluxDB reports for a measurement, to check the write really landed. */
    public String count(String database, String measurement) throws IOException, InterruptedException {
        return query("SELECT count(value) FROM " + measurement, database);
    }

    private String query(String q) throws IOException, InterruptedException {
        return query(q, null);
    }

    private String query(String q, String database) throws IOException, InterruptedException {
        String uri = "http://127.0.0.1:" + httpPort + "/query?q=" + java.net.URLEncoder.encode(q,
                java.nio.charset.StandardCharsets.UTF_8) + (database == null ? "" : "&db=" + database);
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(uri))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("influxd query '" + q + "' failed: HTTP " + response.statusCode() + " "
                    + response.body());
        }
        return response.body();
    }

    private void awaitPing() throws IOException, InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        IOException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("influxd exited with " + process.exitValue() + "; see its log");
            }
            try {
                HttpResponse<Void> ping = http.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + httpPort + "/ping")).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (ping.statusCode() == 204) {
                    return;
                }
            } catch (IOException e) {
                last = e;
            }
            Thread.sleep(200);
        }
        throw new IOException("influxd did not answer /ping within 30 s", last);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
