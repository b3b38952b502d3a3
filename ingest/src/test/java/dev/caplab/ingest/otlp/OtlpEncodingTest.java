package dev.caplab.ingest.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.Metric;
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
}
