package dev.caplab.bench.ingest;

import dev.caplab.app.load.WriteClients;
import dev.caplab.app.load.K6LikeLines;
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
 * /write (in-process Kafka broker; 204 only after Kafka acks=all) and into InfluxDB 1.6 (Debian's influxd, on
 * loopback with a temp directory, stopped afterwards). Prints points/s for both and the ratio.
 * Arguments: [points=5000000] [linesPerBatch=5000] [clients=2].
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

        WriteClients.Result caplab;
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
            caplab = WriteClients.run(write, batches, linesPerBatch, clients, "Bearer " + TOKEN);
        }
        System.out.printf(Locale.ROOT, "caplab /write (Kafka acks=all): %,.0f points/s (%d points in %.1f s)%n",
                caplab.pointsPerSecond(), caplab.points(), caplab.elapsed().toMillis() / 1000.0);

        WriteClients.Result influx = InfluxdProcess.writeAll(dir.resolve("influxdb"), batches, linesPerBatch, clients);
        System.out.printf(Locale.ROOT, "InfluxDB 1.6 /write:            %,.0f points/s (%d points in %.1f s)%n",
                influx.pointsPerSecond(), influx.points(), influx.elapsed().toMillis() / 1000.0);
        System.out.printf(Locale.ROOT, "ratio caplab/InfluxDB: %.2f%n",
                caplab.pointsPerSecond() / influx.pointsPerSecond());
        System.out.println("data left in " + dir + " (delete it when done)");
    }
}
