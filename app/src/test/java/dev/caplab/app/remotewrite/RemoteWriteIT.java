package dev.caplab.app.remotewrite;

import static dev.caplab.ingest.remotewrite.WriteRequests.body;
import static dev.caplab.ingest.remotewrite.WriteRequests.sample;
import static dev.caplab.ingest.remotewrite.WriteRequests.series;
import static dev.caplab.ingest.remotewrite.WriteRequests.snappy;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.app.up.EmbeddedStack;
import dev.caplab.app.up.UpSettings;
import dev.caplab.ingest.remotewrite.prompb.Remote.WriteRequest;
import dev.caplab.ingest.remotewrite.prompb.Types.BucketSpan;
import dev.caplab.ingest.remotewrite.prompb.Types.Histogram;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code caplab up}, then remote write requests built as a sender builds them (the prompb classes, snappy block)
 * with Prometheus' headers, and what arrived in ClickHouse's {@code samples} table. Expected rows are written from
 * the requests by hand (native histogram buckets as worked out in {@code NativeHistogramTest}).
 */
class RemoteWriteIT {

    private static final double STALE = Double.longBitsToDouble(0x7ff0000000000002L);
    private static final long T0 = System.currentTimeMillis() / 1000 * 1000 - 60_000;

    @TempDir
    static Path dataDir;
    private static EmbeddedStack stack;
    private static RemoteWriteClient client;
    private static SamplesTable samples;

    @BeforeAll
    static void up() {
        stack = EmbeddedStack.start(new UpSettings(dataDir, "127.0.0.1", 0, 0, 0, false, null, List.of()),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        client = new RemoteWriteClient(stack.httpPort());
        samples = new SamplesTable(stack.clickhouseJdbcUrl());
    }

    @AfterAll
    static void down() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void countersGaugesAndBothHistogramKindsArriveAndStaleMarkersDoNot() throws Exception {
        String run = "rw-kinds-" + UUID.randomUUID();
        Histogram nativeHistogram = Histogram.newBuilder().setCountInt(9).setSum(20).setSchema(0).setTimestamp(T0)
                .addPositiveSpans(BucketSpan.newBuilder().setOffset(0).setLength(2))
                .addPositiveSpans(BucketSpan.newBuilder().setOffset(1).setLength(1))
                .addAllPositiveDeltas(List.of(3L, -1L, 2L)).build();
        WriteRequest request = WriteRequest.newBuilder()
                .addTimeseries(series("__name__", "node_cpu_seconds_total", "cpu", "0", "instance", "sut:9100",
                        "job", "node", "mode", "user").addSamples(sample(10.5, T0)).addSamples(sample(11.5, T0 + 1000)))
                .addTimeseries(series("__name__", "node_memory_MemAvailable_bytes", "instance", "sut:9100", "job",
                        "node").addSamples(sample(1.5e9, T0)).addSamples(sample(STALE, T0 + 1000)))
                .addTimeseries(series("__name__", "rpc_seconds_bucket", "job", "app", "le", "0.1")
                        .addSamples(sample(3, T0)))
                .addTimeseries(series("__name__", "rpc_seconds_bucket", "job", "app", "le", "+Inf")
                        .addSamples(sample(5, T0)))
                .addTimeseries(series("__name__", "rpc_seconds_sum", "job", "app").addSamples(sample(0.75, T0)))
                .addTimeseries(series("__name__", "rpc_seconds_count", "job", "app").addSamples(sample(5, T0)))
                .addTimeseries(series("__name__", "rpc_native_seconds", "job", "app").addHistograms(nativeHistogram))
                .build();

        HttpResponse<String> response = client.send("/api/v1/write?run=" + run, body(request));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(204);
        assertThat(response.headers().firstValue("X-Caplab-Stale-Markers")).hasValue("1");
        // 2 cpu + 1 memory + 4 classic + (count, sum, 4 buckets) native
        assertThat(response.headers().firstValue("X-Caplab-Samples")).hasValue("13");
        List<Map<String, Object>> rows = samples.await("SELECT metric, kind, value, source, labels['le'] AS le, "
                + "toUnixTimestamp64Milli(ts) - " + T0 + " AS ms FROM samples WHERE run_id = '" + run + "' "
                // buckets of equal count (le=8 and +Inf) ordered by their bound, not by where the rows happen to lie
                + "ORDER BY metric, ms, value, toFloat64OrZero(le)", r -> r.size() >= 15, Duration.ofSeconds(90));
        assertThat(rows).map(r -> r.get("metric") + " " + r.get("kind") + " " + r.get("value") + " "
                + r.get("source") + " le=" + r.get("le") + " +" + r.get("ms")).containsExactly(
                // the node_exporter recipe: a busy mode's cpu-seconds also arrive as caplab's cpu.cores counter
                "cpu.cores COUNTER 10.5 sut:9100 le= +0",
                "cpu.cores COUNTER 11.5 sut:9100 le= +1000",
                "node_cpu_seconds_total COUNTER 10.5 sut:9100 le= +0",
                "node_cpu_seconds_total COUNTER 11.5 sut:9100 le= +1000",
                "node_memory_MemAvailable_bytes GAUGE 1.5E9 sut:9100 le= +0",
                "rpc_native_seconds_bucket COUNTER 3.0 app le=1 +0",
                "rpc_native_seconds_bucket COUNTER 5.0 app le=2 +0",
                "rpc_native_seconds_bucket COUNTER 9.0 app le=8 +0",
                "rpc_native_seconds_bucket COUNTER 9.0 app le=+Inf +0",
                "rpc_native_seconds_count COUNTER 9.0 app le= +0",
                "rpc_native_seconds_sum COUNTER 20.0 app le= +0",
                "rpc_seconds_bucket COUNTER 3.0 app le=0.1 +0",
                "rpc_seconds_bucket COUNTER 5.0 app le=+Inf +0",
                "rpc_seconds_count COUNTER 5.0 app le= +0",
                "rpc_seconds_sum COUNTER 0.75 app le= +0");
        assertThat(samples.query("SELECT labels FROM samples WHERE run_id = '" + run
                + "' AND metric = 'node_cpu_seconds_total' LIMIT 1").getFirst().get("labels"))
                .isEqualTo(Map.of("cpu", "0", "mode", "user", "instance", "sut:9100", "job", "node"));
    }

    @Test
    void aSeriesWithoutARunIsRejectedByNameAndTheOthersAreStored() throws Exception {
        String labelled = "rw-label-" + UUID.randomUUID();
        String fromHeader = "rw-header-" + UUID.randomUUID();
        WriteRequest request = WriteRequest.newBuilder()
                .addTimeseries(series("__name__", "up", "run", labelled, "job", "node").addSamples(sample(1, T0)))
                .addTimeseries(series("__name__", "node_load1", "instance", "sut:9100")
                        .addSamples(sample(0.5, T0)))
                .build();

        HttpResponse<String> partial = client.send("/api/v1/write", body(request));
        HttpResponse<String> withHeader = client.send("/api/v1/write", body(request), "X-Caplab-Run", fromHeader);

        assertThat(partial.statusCode()).isEqualTo(400);
        assertThat(partial.body()).contains("rejected 1 of 2 series (every other series was stored: 1 samples)")
                .contains("series 2 node_load1{instance=\\\"sut:9100\\\"}, field run: no run id");
        assertThat(withHeader.statusCode()).as(withHeader.body()).isEqualTo(204);
        String counts = "SELECT run_id, metric, count() AS n FROM samples WHERE run_id IN ('" + labelled + "', '"
                + fromHeader + "') GROUP BY run_id, metric ORDER BY run_id, metric";
        List<Map<String, Object>> rows = samples.await(counts, r -> r.size() >= 2
                && r.stream().mapToLong(x -> ((Number) x.get("n")).longValue()).sum() >= 3, Duration.ofSeconds(90));
        assertThat(rows).map(r -> r.get("run_id") + " " + r.get("metric") + " " + r.get("n")).containsExactly(
                fromHeader + " node_load1 1", labelled + " up 2");
    }

    @Test
    void bodiesThatAreNotSnappyProtobufStoreNothing() throws Exception {
        String run = "rw-bad-" + UUID.randomUUID();
        byte[] good = body(WriteRequest.newBuilder()
                .addTimeseries(series("__name__", "up").addSamples(sample(1, T0))).build());
        String target = "/api/v1/write?run=" + run;

        HttpResponse<String> notSnappy = client.send(target, "not snappy at all".getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> notProtobuf = client.send(target, snappy("up 1\n".repeat(4)
                .getBytes(StandardCharsets.UTF_8)));
        HttpResponse<String> identity = client.send(target, good, "Content-Encoding", "identity");
        HttpResponse<String> v2 = client.send(target, good, "Content-Type",
                "application/x-protobuf;proto=io.prometheus.write.v2.Request");
        HttpResponse<String> influx = client.send("/write?db=" + run, good);

        assertThat(notSnappy.statusCode()).isEqualTo(400);
        assertThat(notSnappy.body()).contains("not snappy block-compressed").contains("nothing was stored");
        assertThat(notProtobuf.statusCode()).isEqualTo(400);
        assertThat(notProtobuf.body()).contains("is not a prometheus.WriteRequest");
        assertThat(identity.statusCode()).isEqualTo(415);
        assertThat(identity.body()).contains("send Content-Encoding: snappy");
        assertThat(v2.statusCode()).isEqualTo(415);
        assertThat(influx.statusCode()).as("the door passes snappy only to /api/v1/write").isEqualTo(415);
        // a good request after them lands, so "nothing" below is not the pipeline being slow
        assertThat(client.send(target, good).statusCode()).isEqualTo(204);
        assertThat(((Number) samples.await("SELECT count() AS n FROM samples WHERE run_id = '" + run + "'",
                r -> ((Number) r.getFirst().get("n")).longValue() >= 1, Duration.ofSeconds(90)).getFirst().get("n"))
                .longValue()).isEqualTo(1L);
    }
}
