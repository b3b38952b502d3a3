package dev.caplab.bench.ingest;

import dev.caplab.app.load.WriteClients;
import dev.caplab.app.load.K6LikeLines;
import dev.caplab.bench.pipeline.CpuAccount;
import dev.caplab.broker.BrokerSettings;
import dev.caplab.broker.EmbeddedKafkaBroker;
import dev.caplab.ingest.http.IngestHttpConfiguration;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;

/**
 * The same line-protocol points, in the same 5,000-line batches, from the same 2 concurrent clients, into caplab's
 * /write (in-process Kafka broker; 204 only after Kafka acks=all), into VictoriaMetrics (Debian's victoria-metrics)
 * and into InfluxDB 1.6 (Debian's influxd), each on loopback with a temp directory and stopped afterwards. In every
 * round caplab writes first (its stack stays up and warm across rounds), then a fresh victoria-metrics, then a fresh
 * influxd; prints points/s and caplab's ratio to each anchor per round, then the medians.
 * Arguments: [points=5000000] [linesPerBatch=5000] [clients=2] [rounds=1].
 */
public final class WriteThroughputBench {

    private static final String TOKEN = "bench-token-0123456789abcdef";

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(IngestHttpConfiguration.class)
    static class IngestOnly {
    }

    private WriteThroughputBench() {
    }

    public static void main(String[] args) throws Exception {
        long points = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000L;
        int linesPerBatch = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
        int clients = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        Path dir = Files.createTempDirectory("caplab-write-bench");
        List<byte[]> batches = new ArrayList<>();
        long bytes = 0;
        for (long first = 0; first + linesPerBatch <= points; first += linesPerBatch) {
            byte[] batch = K6LikeLines.batch(first, linesPerBatch);
            bytes += batch.length;
            batches.add(batch);
        }
        System.out.printf(Locale.ROOT, "%d points in %d batches of %d lines (%.0f MB), %d clients%n",
                (long) batches.size() * linesPerBatch, batches.size(), linesPerBatch, bytes / 1e6, clients);

        List<Double> toVm = new ArrayList<>();
        List<Double> toInflux = new ArrayList<>();
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(BrokerSettings.loopback(dir.resolve("caplab"), 0));
                ConfigurableApplicationContext app = new SpringApplication(IngestOnly.class).run(
                        "--server.port=0", "--server.address=127.0.0.1", "--spring.main.banner-mode=off",
                        "--caplab.ingest.bootstrap-servers=" + broker.bootstrapServers(),
                        "--caplab.access.tokens[0].name=bench", "--caplab.access.tokens[0].secret=" + TOKEN,
                        "--caplab.access.tokens[0].scopes=write")) {
            int port = ((WebServerApplicationContext) app).getWebServer().getPort();
            URI write = URI.create("http://127.0.0.1:" + port + "/write?db=bench-run&precision=ns");
            WriteClients.run(write, batches.subList(0, Math.min(40, batches.size())), linesPerBatch, clients,
                    "Bearer " + TOKEN);
            for (int round = 1; round <= rounds; round++) {
                System.out.printf(Locale.ROOT, "round %d of %d, load average %s%n", round, rounds, loadAverage());
                CpuAccount cpu = CpuAccount.start();
                WriteClients.Result caplab = WriteClients.run(write, batches, linesPerBatch, clients, "Bearer " + TOKEN);
                print("caplab /write (Kafka acks=all)", caplab);
                // the bench's own HTTP clients run in this JVM too (the JDK's HttpClient threads)
                cpu.print(System.out, caplab.points(), "µs", "sample", 1e3, 2);
                WriteClients.Result vm = VictoriaMetricsProcess.writeAll(dir.resolve("vm-" + round), batches,
                        linesPerBatch, clients);
                print("VictoriaMetrics /write", vm);
                WriteClients.Result influx = InfluxdProcess.writeAll(dir.resolve("influxdb-" + round), batches,
                        linesPerBatch, clients);
                print("InfluxDB 1.6 /write", influx);
                toVm.add(caplab.pointsPerSecond() / vm.pointsPerSecond());
                toInflux.add(caplab.pointsPerSecond() / influx.pointsPerSecond());
                System.out.printf(Locale.ROOT, "round %d: caplab/VictoriaMetrics %.2f, caplab/InfluxDB %.2f%n", round,
                        toVm.getLast(), toInflux.getLast());
            }
        }
        System.out.printf(Locale.ROOT, "median of %d rounds: caplab/VictoriaMetrics %.2f, caplab/InfluxDB %.2f"
                + " (load average now %s)%n", rounds, median(toVm), median(toInflux), loadAverage());
        System.out.println("data left in " + dir + " (delete it when done)");
    }

    private static void print(String what, WriteClients.Result r) {
        System.out.printf(Locale.ROOT, "%-32s %,11.0f points/s (%d points in %.1f s)%n", what + ":",
                r.pointsPerSecond(), r.points(), r.elapsed().toMillis() / 1000.0);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String loadAverage() throws java.io.IOException {
        String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
        return fields[0] + " " + fields[1] + " " + fields[2];
    }
}
