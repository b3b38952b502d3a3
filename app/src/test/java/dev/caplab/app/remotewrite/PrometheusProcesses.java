package dev.caplab.app.remotewrite;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's node_exporter and Prometheus on loopback: Prometheus scrapes node_exporter every second and remote-writes
 * everything to {@code remoteWriteUrl}. Both are stopped (and their output kept in {@code dir} for a failing test's
 * report) on close. Scrape more targets by adding them to {@code extraTargets} (host:port), e.g. a workload's own
 * /metrics, when a test needs them. {@link #startMonitoring} adds what an SRE team's setup has beside them:
 * process-exporter grouping processes by a config, and Prometheus scraping itself.
 */
public final class PrometheusProcesses implements AutoCloseable {

    static final String PROMETHEUS = "/usr/bin/prometheus";
    static final String NODE_EXPORTER = "/usr/bin/prometheus-node-exporter";
    static final String PROCESS_EXPORTER = "/usr/bin/prometheus-process-exporter";

    private final List<Process> processes = new ArrayList<>();
    private final Path dir;
    private int nodeExporterPort;
    private int processExporterPort;
    private int prometheusPort;

    private PrometheusProcesses(Path dir) {
        this.dir = dir;
    }

    /** Starts node_exporter (cpu, meminfo, netdev, loadavg collectors) and Prometheus; returns once both answer. */
    static PrometheusProcesses start(Path dir, String remoteWriteUrl, List<String> extraTargets) throws Exception {
        return start(dir, remoteWriteUrl, extraTargets, null);
    }

    /**
     * {@link #start(Path, String, List)}, plus Debian's process-exporter with {@code processExporterConfig} (its
     * YAML {@code process_names}) as one more target, when that is not null.
     */
    static PrometheusProcesses start(Path dir, String remoteWriteUrl, List<String> extraTargets,
            String processExporterConfig) throws Exception {
        return start(dir, remoteWriteUrl, extraTargets, processExporterConfig, 0);
    }

    private static PrometheusProcesses start(Path dir, String remoteWriteUrl, List<String> extraTargets,
            String processExporterConfig, int prometheusPort) throws Exception {
        DebianTool.require(PROMETHEUS, "prometheus");
        DebianTool.require(NODE_EXPORTER, "prometheus-node-exporter");
        if (processExporterConfig != null) {
            DebianTool.require(PROCESS_EXPORTER, "prometheus-process-exporter");
        }
        PrometheusProcesses started = new PrometheusProcesses(dir);
        started.prometheusPort = prometheusPort;
        try {
            started.startNodeExporter();
            List<String> targets = new ArrayList<>(extraTargets);
            if (processExporterConfig != null) {
                targets.add(started.startProcessExporter(processExporterConfig));
            }
            started.startPrometheus(remoteWriteUrl, targets);
        } catch (Exception e) {
            started.close();
            throw e;
        }
        return started;
    }

    /**
     * {@link #start(Path, String, List, String)} with process-exporter and Prometheus scraping itself too, as its
     * packaged config does: the monitoring an SRE team already runs.
     */
    public static PrometheusProcesses startMonitoring(Path dir, String remoteWriteUrl, String processGroupsYaml)
            throws Exception {
        int prometheusPort = freePort();
        PrometheusProcesses started = start(dir, remoteWriteUrl, List.of("127.0.0.1:" + prometheusPort),
                processGroupsYaml, prometheusPort);
        return started;
    }

    /** Prometheus' own address, the {@code instance} of its self-scrape. */
    public String prometheusInstance() {
        return "127.0.0.1:" + prometheusPort;
    }

    /** The scraped node_exporter's address, which Prometheus puts in the {@code instance} label. */
    public String nodeExporterInstance() {
        return "127.0.0.1:" + nodeExporterPort;
    }

    /** The scraped process-exporter's address (its {@code instance} label); 0 as port when none was started. */
    public String processExporterInstance() {
        return "127.0.0.1:" + processExporterPort;
    }

    private String startProcessExporter(String config) throws Exception {
        processExporterPort = freePort();
        Path file = dir.resolve("process-exporter.yml");
        Files.writeString(file, config, StandardCharsets.UTF_8);
        launch("process-exporter", List.of(PROCESS_EXPORTER, "--web.listen-address=" + processExporterInstance(),
                "--config.path=" + file));
        awaitHttp("http://" + processExporterInstance() + "/metrics");
        return processExporterInstance();
    }

    String prometheusUrl() {
        return "http://127.0.0.1:" + prometheusPort;
    }

    private void startNodeExporter() throws Exception {
        nodeExporterPort = freePort();
        launch("node-exporter", List.of(NODE_EXPORTER, "--web.listen-address=" + nodeExporterInstance(),
                "--collector.disable-defaults", "--collector.cpu", "--collector.meminfo", "--collector.netdev",
                "--collector.loadavg"));
        awaitHttp("http://" + nodeExporterInstance() + "/metrics");
    }

    private void startPrometheus(String remoteWriteUrl, List<String> extraTargets) throws Exception {
        if (prometheusPort == 0) {
            prometheusPort = freePort();
        }
        List<String> targets = new ArrayList<>();
        targets.add("'" + nodeExporterInstance() + "'");
        extraTargets.forEach(t -> targets.add("'" + t + "'"));
        Path config = dir.resolve("prometheus.yml");
        // 1 s scrapes and a 1 s send deadline, so samples reach caplab within a couple of seconds
        Files.writeString(config, """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 900ms
                  evaluation_interval: 1s
                scrape_configs:
                  - job_name: node
                    static_configs:
                      - targets: [%s]
                remote_write:
                  - url: '%s'
                    queue_config:
                      batch_send_deadline: 1s
                      min_backoff: 100ms
                      max_backoff: 1s
                    metadata_config:
                      send_interval: 5s
                """.formatted(String.join(", ", targets), remoteWriteUrl), StandardCharsets.UTF_8);
        Path tsdb = Files.createDirectories(dir.resolve("tsdb"));
        launch("prometheus", List.of(PROMETHEUS, "--config.file=" + config, "--storage.tsdb.path=" + tsdb,
                "--web.listen-address=127.0.0.1:" + prometheusPort, "--storage.tsdb.retention.time=1h"));
        awaitHttp(prometheusUrl() + "/-/ready");
    }

    /** What a process printed, for assertion messages. */
    public String log(String name) throws IOException {
        Path log = dir.resolve(name + ".log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    private void launch(String name, List<String> command) throws IOException {
        processes.add(new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile()).start());
    }

    private void awaitHttp(String url) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            for (Process p : processes) {
                if (!p.isAlive()) {
                    throw new IllegalStateException(p.info().command().orElse("?") + " exited with "
                            + p.exitValue() + ": " + log("prometheus") + log("node-exporter")
                            + log("process-exporter"));
                }
            }
            try {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(url)).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                last = e;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException(url + " did not answer 200 within 20 s", last);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        // Prometheus first, so it sends nothing more; SIGTERM, then SIGKILL for whatever did not stop within 10 s
        for (Process p : processes.reversed()) {
            p.destroy();
        }
        for (Process p : processes.reversed()) {
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
    }
}
