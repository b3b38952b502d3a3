package dev.caplab.ingest.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.Metric;
import dev.caplab.ingest.census.CensusLimits;
import dev.caplab.ingest.census.TooManyValuesException;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** OTLP/HTTP's two encodings: the JSON form with OTLP's deviations from proto3 JSON reads as the protobuf does. */
class OtlpEncodingTest {

    /**
     * Written as the OTLP specification's JSON examples are: lowerCamelCase keys, the temporality enum as an
     * integer, 64-bit integers as strings, trace and span ids in hex, plus a field this version does not know.
     */
    static final String JSON = """
            {"resourceMetrics":[{"resource":{"attributes":[
                {"key":"service.name","value":{"stringValue":"checkout"}},
                {"key":"caplab.run.id","value":{"stringValue":"r1"}}]},
              "scopeMetrics":[{"scope":{"name":"manual"},"metrics":[
                {"name":"http.requests","unit":"1","sum":{"aggregationTemporality":2,"isMonotonic":true,
                  "dataPoints":[{"startTimeUnixNano":"1699999990000000000","timeUnixNano":"1700000000000000000",
                    "asInt":"7","attributes":[{"key":"method","value":{"stringValue":"GET"}}],
                    "exemplars":[{"timeUnixNano":"1700000000000000000","asInt":"1",
                      "traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174"}]}]}},
                {"name":"later.field","gauge":{"dataPoints":[{"timeUnixNano":"1700000000000000000","asDouble":0.5}]},
                  "someFutureField":{"x":1}}]}]}]}
            """;

    @Test
    void jsonWithOtlpDeviationsParses() {
        ExportMetricsServiceRequest request = OtlpEncoding.JSON.parse(JSON.getBytes(StandardCharsets.UTF_8));
        Metric sum = request.getResourceMetrics(0).getScopeMetrics(0).getMetrics(0);
        assertThat(sum.getSum().getAggregationTemporality())
                .isEqualTo(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
        assertThat(sum.getSum().getIsMonotonic()).isTrue();
        assertThat(sum.getSum().getDataPoints(0).getAsInt()).isEqualTo(7);
        assertThat(sum.getSum().getDataPoints(0).getTimeUnixNano()).isEqualTo(1_700_000_000_000_000_000L);
        assertThat(request.getResourceMetrics(0).getScopeMetrics(0).getMetrics(1).getGauge().getDataPoints(0)
                .getAsDouble()).isEqualTo(0.5);
        // the same request through the binary encoding
        assertThat(OtlpEncoding.PROTOBUF.parse(request.toByteArray())).isEqualTo(request);
    }

    @Test
    void contentTypesAndMalformedBodies() {
        assertThat(OtlpEncoding.of("application/x-protobuf")).isEqualTo(OtlpEncoding.PROTOBUF);
        assertThat(OtlpEncoding.of("Application/JSON; charset=utf-8")).isEqualTo(OtlpEncoding.JSON);
        assertThatThrownBy(() -> OtlpEncoding.of("text/plain"))
                .isInstanceOf(OtlpEncoding.UnsupportedContentTypeException.class);
        assertThatThrownBy(() -> OtlpEncoding.of(null))
                .isInstanceOf(OtlpEncoding.UnsupportedContentTypeException.class);
        assertThatThrownBy(() -> OtlpEncoding.JSON.parse("{\"resourceMetrics\":".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(OtlpEncoding.MalformedRequestException.class);
        assertThatThrownBy(() -> OtlpEncoding.PROTOBUF.parse(new byte[] {(byte) 0x0a, (byte) 0x05, 1}))
                .isInstanceOf(OtlpEncoding.MalformedRequestException.class);
    }

    @Test
    void responsesInTheRequestsEncoding() throws Exception {
        ExportMetricsServiceResponse partial = ExportMetricsServiceResponse.parseFrom(
                OtlpEncoding.PROTOBUF.response(2, "two bad"));
        assertThat(partial.getPartialSuccess().getRejectedDataPoints()).isEqualTo(2);
        assertThat(partial.getPartialSuccess().getErrorMessage()).isEqualTo("two bad");
        assertThat(OtlpEncoding.PROTOBUF.response(0, "")).isEmpty();
        assertThat(new String(OtlpEncoding.JSON.response(2, "two bad"), StandardCharsets.UTF_8))
                .isEqualTo("{\"partialSuccess\":{\"rejectedDataPoints\":\"2\",\"errorMessage\":\"two bad\"}}");
        assertThat(new String(OtlpEncoding.JSON.response(0, ""), StandardCharsets.UTF_8)).isEqualTo("{}");
        // google.rpc.Status: field 1 varint code 3, field 2 string "bad" → 08 03 12 03 'b' 'a' 'd'
        assertThat(OtlpEncoding.PROTOBUF.status(3, "bad")).containsExactly(0x08, 0x03, 0x12, 0x03, 'b', 'a', 'd');
        assertThat(new String(OtlpEncoding.JSON.status(3, "bad"), StandardCharsets.UTF_8))
                .isEqualTo("{\"code\":3,\"message\":\"bad\"}");
    }

    @Test
    void aJsonArrayOverTheLimitIsRefusedWhileReadingWithoutReadingTheRest() {
        CensusLimits limits = new CensusLimits(1_000, 1_000_000, 32);
        String head = "{\"resourceMetrics\":[{\"scopeMetrics\":[{\"metrics\":[{\"name\":\"h\","
                + "\"exponentialHistogram\":{\"dataPoints\":[{},{\"positive\":{\"bucketCounts\":[0";
        byte[] body = (head + ",0".repeat(1_000_000) + "]}}]}}]}]}]}").getBytes(StandardCharsets.UTF_8);
        CountingStream in = new CountingStream(body);

        assertThatThrownBy(() -> OtlpEncoding.JSON.read(in, limits))
                .isInstanceOf(TooManyValuesException.class)
                .hasMessageStartingWith("resourceMetrics[0].scopeMetrics[0].metrics[0].exponentialHistogram"
                        + ".dataPoints[1].positive.bucketCounts: more than 1000 values in one field");
        assertThat(in.read).as("bytes read of the 2 MB body").isLessThan(64 * 1024);
    }

    @Test
    void aProtobufFieldOverTheLimitIsRefusedBeforeParsing() {
        CensusLimits limits = new CensusLimits(1_000, 1_000_000, 32);
        ExportMetricsServiceRequest request = ExportMetricsServiceRequest.newBuilder().addResourceMetrics(
                ResourceMetrics.newBuilder().addScopeMetrics(ScopeMetrics.newBuilder().addMetrics(Metric.newBuilder()
                        .setName("h").setHistogram(Histogram.newBuilder().addDataPoints(HistogramDataPoint.newBuilder()
                                .addAllExplicitBounds(java.util.stream.DoubleStream.iterate(1, b -> b + 1)
                                        .limit(1_001).boxed().toList())))))).build();

        assertThatThrownBy(() -> OtlpEncoding.PROTOBUF.read(new ByteArrayInputStream(request.toByteArray()), limits))
                .isInstanceOf(TooManyValuesException.class)
                .hasMessageStartingWith("resource_metrics[0].scope_metrics[0].metrics[0].histogram.data_points[0]"
                        + ".explicit_bounds: more than 1000 values");
    }

    /** Counts the bytes taken from it. */
    private static final class CountingStream extends ByteArrayInputStream {
        long read;

        CountingStream(byte[] bytes) {
            super(bytes);
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) {
            int n = super.read(b, off, len);
            read += Math.max(n, 0);
            return n;
        }
    }
}
