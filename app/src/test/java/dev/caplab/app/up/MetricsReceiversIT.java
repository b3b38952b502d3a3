package dev.caplab.app.up;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.sdk.metrics.Aggregation;
import io.opentelemetry.sdk.metrics.InstrumentSelector;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.View;
import io.opentelemetry.sdk.metrics.export.AggregationTemporalitySelector;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The OTLP/HTTP and InfluxDB 2.x receivers fed by what users run, each asserted in ClickHouse: the OpenTelemetry
 * Java SDK's own OTLP/HTTP exporter (protobuf; the Java exporter offers no JSON) pushing a counter, a gauge, an
 * explicit and an exponential histogram, cumulative and delta; an OTLP/JSON body as the specification writes it;
 * and {@code /api/v2/write} with the headers Telegraf's {@code outputs.influxdb_v2} and the influxdb-client
 * libraries send. One stack for all (it is the slow part).
 */
class MetricsReceiversIT {

    private static final String TOKEN = "receivers-it-token-0123456789abcdef";
    private static final long T0_SECONDS = 1_700_000_000L;

    private static Path dataDir;
    private static EmbeddedStack stack;
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() throws Exception {
        dataDir = Files.createTempDirectory("caplab-receivers-it");
        stack = EmbeddedStack.start(new UpSettings(dataDir, "127.0.0.1", 0, 0, 0, false, null,
                List.of(TOKEN + "=read,write")), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8));
    }

    @AfterAll
    static void stop() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void openTelemetrySdkExporterPushesEveryInstrumentKind() throws Exception {
        String endpoint = "http://127.0.0.1:" + stack.httpPort() + "/v1/metrics";
        try (SdkMeterProvider provider = provider(endpoint, "otel-cumulative",
                AggregationTemporalitySelector.alwaysCumulative())) {
            Meter meter = provider.get("caplab-it");
            var requests = meter.counterBuilder("http.requests").build();
            meter.gaugeBuilder("cpu.cores").build().set(1.5, Attributes.of(AttributeKey.stringKey("cpu"), "total"));
            var duration = meter.histogramBuilder("http.duration").build();
            var rpc = meter.histogramBuilder("rpc.duration").build();
            requests.add(3);
            for (double v : new double[] {0.05, 0.2, 0.3, 2.0}) {
                duration.record(v);
            }
            for (double v : new double[] {1.0, 3.0, 3.0, 6.0}) {
                rpc.record(v);
            }
            assertThat(provider.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
            requests.add(4);
            assertThat(provider.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
        }
        try (SdkMeterProvider provider = provider(endpoint, "otel-delta",
                AggregationTemporalitySelector.deltaPreferred())) {
            var requests = provider.get("caplab-it").counterBuilder("http.requests").build();
            requests.add(3);
            assertThat(provider.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
            requests.add(4);
            assertThat(provider.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
        }

        // cumulative: 3 after the first export, 3 + 4 after the second and again at shutdown (the reader's last export)
        assertThat(await("otel-cumulative", "http.requests", 3)).containsExactly(3.0, 7.0, 7.0);
        // delta exports 3 then 4: stored as the running total, after a zero at the first interval's start
        List<Double> delta = await("otel-delta", "http.requests", 3);
        assertThat(delta.subList(0, 3)).containsExactly(0.0, 3.0, 7.0);
        assertThat(delta.subList(3, delta.size())).allMatch(v -> v == 7.0); // an empty interval adds nothing
        assertThat(lastValues("otel-cumulative", "cpu.cores")).containsExactly(Map.entry("", 1.5));
        // explicit bounds 0.1, 0.5, 1 over 0.05, 0.2, 0.3, 2.0: ≤0.1: 1, ≤0.5: 3, ≤1: 3, all: 4; sum 2.55
        assertThat(lastValues("otel-cumulative", "http.duration.bucket")).containsExactlyInAnyOrderEntriesOf(
                Map.of("0.1", 1.0, "0.5", 3.0, "1", 3.0, "+Inf", 4.0));
        assertThat(lastValues("otel-cumulative", "http.duration.count")).containsExactly(Map.entry("", 4.0));
        assertThat(lastValues("otel-cumulative", "http.duration.sum").get("")).isCloseTo(2.55,
                org.assertj.core.data.Offset.offset(1e-9));
        assertThat(lastValues("otel-cumulative", "http.duration.max")).containsExactly(Map.entry("", 2.0));
        // scale 0 (base 2), buckets (lo, hi]: 1.0 in (0.5,1], 3.0 twice in (2,4], 6.0 in (4,8]; zero bucket empty
        assertThat(lastValues("otel-cumulative", "rpc.duration.bucket")).containsExactlyInAnyOrderEntriesOf(
                Map.of("0", 0.0, "1", 1.0, "2", 1.0, "4", 3.0, "8", 4.0, "+Inf", 4.0));
        assertThat(sources("otel-cumulative")).containsExactly("otel-it");
    }

    @Test
    void otlpJsonAsTheSpecificationWritesIt() throws Exception {
        String json = """
                {"resourceMetrics":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"js"}}]},
                  "scopeMetrics":[{"metrics":[{"name":"queue.depth","gauge":{"dataPoints":[
                    {"timeUnixNano":"%d000000000","asInt":"12","attributes":[{"key":"queue","value":{"stringValue":"a"}}]},
                    {"timeUnixNano":"%d000000000","asInt":"13","attributes":[{"key":"queue","value":{"stringValue":"%s"}}]}
                  ]}}]}]}]}
                """.formatted(T0_SECONDS, T0_SECONDS, "q".repeat(17_000));
        HttpResponse<String> partial = post("/v1/metrics?run=otlp-json", "application/json", null, "Bearer " + TOKEN,
                json.getBytes(StandardCharsets.UTF_8));
        assertThat(partial.statusCode()).isEqualTo(200);
        assertThat(partial.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        assertThat(partial.body()).contains("\"rejectedDataPoints\":\"1\"").contains("data point 2");

        HttpResponse<String> noRun = post("/v1/metrics", "application/json", null, "Bearer " + TOKEN,
                json.getBytes(StandardCharsets.UTF_8));
        assertThat(noRun.statusCode()).isEqualTo(400);
        assertThat(noRun.body()).contains("caplab.run.id");
        assertThat(post("/v1/metrics?run=x", "text/plain", null, "Bearer " + TOKEN, new byte[] {1}).statusCode())
                .isEqualTo(415);
        assertThat(post("/v1/metrics?run=x", "application/x-protobuf", null, "Bearer " + TOKEN,
                new byte[] {0x0a, 0x05, 1}).statusCode()).isEqualTo(400);

        assertThat(await("otlp-json", "queue.depth", 1)).containsExactly(12.0);
    }

    @Test
    void influxV2WriteAsTelegrafSendsIt() throws Exception {
        // Telegraf's outputs.influxdb_v2: gzip by default, Token auth, bucket and org in the query
        byte[] lines = ("cpu,host=sut usage_user=12.5 " + T0_SECONDS + "\n"
                + "cpu,host=sut usage_user=13.5 " + (T0_SECONDS + 1) + "\n"
                + "cpu,host=sut usage_user=14.5 " + (T0_SECONDS + 2) + "\n").getBytes(StandardCharsets.UTF_8);
        assertThat(post("/api/v2/write?org=my-org&bucket=v2-gzip&precision=s", "text/plain; charset=utf-8", "gzip",
                "Token " + TOKEN, gzip(lines)).statusCode()).isEqualTo(204);

        String mixed = "mem,host=sut used=1 " + T0_SECONDS * 1000 + "\nmem,host=sut used= \n"
                + "mem,host=sut used=3 " + (T0_SECONDS + 1) * 1000 + "\n";
        HttpResponse<String> partial = post("/api/v2/write?org=my-org&bucket=v2-partial&precision=ms",
                "text/plain; charset=utf-8", null, "Token " + TOKEN, mixed.getBytes(StandardCharsets.UTF_8));
        assertThat(partial.statusCode()).isEqualTo(400);
        assertThat(partial.body()).startsWith("{\"code\":\"invalid\",\"message\":\"partial write:")
                .contains("rejected lines: 2");

        HttpResponse<String> badPrecision = post("/api/v2/write?bucket=v2-x&precision=h", "text/plain", null,
                "Token " + TOKEN, lines);
        assertThat(badPrecision.statusCode()).isEqualTo(400);
        assertThat(badPrecision.body()).contains("\"code\":\"invalid\"");
        assertThat(post("/api/v2/write?bucket=v2-x", "text/plain", null, "Token wrong-token-0123456789", lines)
                .statusCode()).isEqualTo(401);

        assertThat(await("v2-gzip", "cpu.usage_user", 3)).containsExactly(12.5, 13.5, 14.5);
        assertThat(await("v2-partial", "mem.used", 2)).containsExactly(1.0, 3.0);
    }

    private static SdkMeterProvider provider(String endpoint, String run, AggregationTemporalitySelector temporality) {
        OtlpHttpMetricExporter exporter = OtlpHttpMetricExporter.builder().setEndpoint(endpoint)
                .addHeader("Authorization", "Bearer " + TOKEN).addHeader("X-Caplab-Run", run)
                .setAggregationTemporalitySelector(temporality).build();
        return SdkMeterProvider.builder()
                .setResource(Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "otel-it")))
                .registerMetricReader(PeriodicMetricReader.builder(exporter).setInterval(Duration.ofHours(1)).build())
                .registerView(InstrumentSelector.builder().setName("http.duration").build(), View.builder()
                        .setAggregation(Aggregation.explicitBucketHistogram(List.of(0.1, 0.5, 1.0))).build())
                .registerView(InstrumentSelector.builder().setName("rpc.duration").build(), View.builder()
                        .setAggregation(Aggregation.base2ExponentialBucketHistogram(160, 0)).build())
                .build();
    }

    private static HttpResponse<String> post(String target, String contentType, String encoding, String authorization,
            byte[] body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + stack.httpPort()
                + target)).header("Content-Type", contentType).header("Authorization", authorization)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (encoding != null) {
            request.header("Content-Encoding", encoding);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The metric's values in time order, once {@code count} rows arrived (or what there is after 90 s). */
    private static List<Double> await(String run, String metric, int count) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        List<Double> values = List.of();
        while (System.nanoTime() < deadline) {
            values = query("SELECT value FROM samples WHERE run_id = ? AND metric = ? ORDER BY ts, value", run, metric,
                    rs -> rs.getDouble(1));
            if (values.size() >= count) {
                return values;
            }
            Thread.sleep(300);
        }
        return values;
    }

    /** le label (or "") → the latest value of the metric. */
    private static Map<String, Double> lastValues(String run, String metric) throws Exception {
        await(run, metric, 1);
        Map<String, Double> out = new LinkedHashMap<>();
        query("SELECT labels['le'], argMax(value, ts) FROM samples WHERE run_id = ? AND metric = ? GROUP BY 1", run,
                metric, rs -> out.put(rs.getString(1), rs.getDouble(2)));
        return out;
    }

    private static List<String> sources(String run) throws Exception {
        return query("SELECT DISTINCT source FROM samples WHERE run_id = ? AND metric != ?", run, "", rs ->
                rs.getString(1));
    }

    /** One row reader per result row of a query on (run, metric). */
    private static <T> List<T> query(String sql, String run, String metric, Row<T> row) throws Exception {
        List<T> out = new ArrayList<>();
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, run);
            s.setString(2, metric);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(row.read(rs));
                }
            }
        }
        return out;
    }

    @FunctionalInterface
    private interface Row<T> {
        T read(ResultSet rs) throws java.sql.SQLException;
    }

    private static Connection connect() throws Exception {
        return DriverManager.getConnection(stack.clickhouseJdbcUrl(), "caplab-read", TOKEN);
    }

    private static byte[] gzip(byte[] body) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(body);
        }
        return out.toByteArray();
    }
}
