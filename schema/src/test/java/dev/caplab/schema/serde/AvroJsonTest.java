package dev.caplab.schema.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.schema.event.ResourceEstimate;
import java.util.List;
import org.junit.jupiter.api.Test;

class AvroJsonTest {

    private static ResourceEstimate estimate(String metric, Double ceiling) {
        return ResourceEstimate.newBuilder().setSource("node").setMetric(metric).setIntercept(0.35).setSlope(0.006)
                .setInterceptVariance(4e-4).setSlopeVariance(1e-8).setCovariance(-1e-6).setResidualStdErr(0.01)
                .setDegreesOfFreedom(3).setPreKneeSteps(5).setFromX(12).setToX(100).setCeiling(ceiling)
                .setSafeCapacityX(ceiling == null ? null : 141.67).build();
    }

    @Test
    void anArrayOfRecordsWithNullsRoundTripsThroughAvrosJsonEncoding() {
        List<ResourceEstimate> items = List.of(estimate("cpu.cores", 2.0), estimate("mem.bytes", null));
        String json = AvroJson.encodeArray(items, ResourceEstimate.getClassSchema());
        // Avro's JSON encoding wraps a union's non-null branch in its type name
        assertThat(json).startsWith("[{").contains("\"ceiling\":{\"double\":2.0}").contains("\"ceiling\":null");
        assertThat(AvroJson.<ResourceEstimate>decodeArray(json, ResourceEstimate.getClassSchema())).isEqualTo(items);
    }

    @Test
    void textThatIsNotSuchAnArrayIsRefusedNamingTheType() {
        assertThatThrownBy(() -> AvroJson.decodeArray("[{\"source\": 1}]", ResourceEstimate.getClassSchema()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dev.caplab.schema.event.ResourceEstimate");
    }
}
