package dev.caplab.query.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.query.fits.FitView;
import dev.caplab.query.testing.StoredFits;
import dev.caplab.schema.event.Segment;
import dev.caplab.query.steps.AggregateView;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepAggregate;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.mock.http.MockHttpOutputMessage;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A stored fit and a stored step aggregate are what {@code /fits} and {@code /aggregates} serve: under the names the
 * page, the notebooks and the API docs read, in the same order as JSON properties and CSV columns, with storage's own
 * fields left out and the flat fields computed from the row. A fit is the schema's record as the API writes Avro
 * records ({@link ApiJson}), its flat fields after its own.
 */
class StoredRowsServedTest {

    private static final JsonMapper JSON = ApiJson.mapper();
    private static final Instant AT = Instant.parse("2026-05-16T04:17:30Z");

    private static final List<String> FIT_FIELDS = List.of("runId", "source", "metric", "model", "modelVersion",
            "loadExpression", "stepsUsed", "segments", "breakpoints", "breakpointPValue", "rSquared", "cliff",
            "cliffStepIndex", "capacity", "margin", "safeCapacityX", "bottleneck", "fittedAt", "role", "baseline",
            "slopePerX", "kneeX", "kneeLower95", "kneeUpper95", "throughputFit");

    private static final List<String> AGGREGATE_FIELDS = List.of("runId", "stepIndex", "x", "source", "metric",
            "kind", "count", "warmupCount", "sustained", "peak", "mean", "min", "max", "p50", "p90", "p95", "p99",
            "ratePerSecond", "baselineDelta", "contaminated", "windowStart", "windowEnd", "lateSamples", "resource");

    /** A fit as streams emits it: its first segment with the statistics the store keeps no column for. */
    private static FitView kneed() {
        Segment belowKnee = Segment.newBuilder(StoredFits.segment(10, 17, 0.1, 0.02, 0.001)).setInterceptStdErr(0.05)
                .setSlopeLower95(0.018).setSlopeUpper95(0.022).build();
        return new FitView(StoredFits.fit("ep19", "node", "cpu.cores", "segmented-1", "1", "sessions", 5,
                List.of(belowKnee, StoredFits.segment(17, 19, -2.45, 0.17, null)),
                List.of(StoredFits.breakpoint(17, 0.4, 16.2, 17.8), StoredFits.breakpoint(18.5, null, null, null)), 0.01,
                0.99, false, null, 1.0, 0.6, 16.0, true, AT, 7, "sut"));
    }

    private static AggregateView aggregate(String metric, Map<String, Double> quantiles) {
        return new AggregateView(StepAggregate.newBuilder().setRunId("ep19").setStepIndex(2)
                .setLoad(Map.of("sessions", 17.0)).setX(17.0).setSource("node").setMetric(metric)
                .setKind(SampleKind.GAUGE).setCount(120).setWarmupCount(20).setSum(45.0).setMin(0.3).setMax(0.6)
                .setMean(0.45).setSustained(0.44).setPeak(0.6).setQuantiles(quantiles).setRatePerSecond(null)
                .setBaselineDelta(0.2).setWindowStart(AT).setWindowEnd(AT.plusSeconds(120)).setContaminated(false)
                .setVersion(3).setLateCount(4).build());
    }

    private static List<String> names(JsonNode node) {
        return node.propertyNames().stream().toList();
    }

    private static String csvHeader(List<?> rows) throws Exception {
        MockHttpOutputMessage out = new MockHttpOutputMessage();
        new CsvMessageConverter().write(rows, CsvMessageConverter.TEXT_CSV, out);
        return out.getBodyAsString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow();
    }

    @Test
    void aFitIsServedWithItsFirstSegmentAndBreakpointFlatAndWithoutItsVersion() throws Exception {
        JsonNode fit = JSON.valueToTree(kneed());
        assertThat(names(fit)).containsExactlyElementsOf(FIT_FIELDS);
        assertThat(csvHeader(List.of(kneed()))).isEqualTo(String.join(",", FIT_FIELDS));
        // below the knee: the first segment; the knee: the first breakpoint with its interval
        assertThat(fit.get("baseline").asDouble()).isEqualTo(0.1);
        assertThat(fit.get("slopePerX").asDouble()).isEqualTo(0.02);
        assertThat(fit.get("kneeX").asDouble()).isEqualTo(17);
        assertThat(fit.get("kneeLower95").asDouble()).isEqualTo(16.2);
        assertThat(fit.get("kneeUpper95").asDouble()).isEqualTo(17.8);
        assertThat(fit.get("throughputFit").asBoolean()).isFalse();
        assertThat(fit.get("rSquared").asDouble()).isEqualTo(0.99);
        assertThat(fit.get("fittedAt").asString()).isEqualTo("2026-05-16T04:17:30Z");
        for (JsonNode segment : fit.get("segments")) {
            assertThat(names(segment)).containsExactly("fromX", "toX", "intercept", "slope", "slopeStdErr");
        }
        assertThat(names(fit.get("breakpoints").get(0))).containsExactly("x", "stdErr", "lower95", "upper95");
        assertThat(fit.get("segments").get(1).get("intercept").asDouble()).isEqualTo(-2.45);
    }

    @Test
    void aFitWithoutSegmentsOrBreakpointsHasNoFlatFields() {
        JsonNode fit = JSON.valueToTree(new FitView(StoredFits.fit("ep19", "caplab:throughput",
                "throughput.requests.per_s", "linear", "1", "sessions", 2, List.of(), List.of(), null, null, false,
                null, null, 0.6, null, false, AT, 1)));
        for (String flat : List.of("baseline", "slopePerX", "kneeX", "kneeLower95", "kneeUpper95", "role")) {
            assertThat(fit.get(flat).isNull()).as(flat).isTrue();
        }
        assertThat(fit.get("throughputFit").asBoolean()).as("the request rate's fit").isTrue();
    }

    @Test
    void everyFieldTheAggregateSchemaHasIsServedButStoragesOwn() {
        // from the schema, so a field the schema gains fails this until the API serves it
        List<String> served = StepAggregate.getClassSchema().getFields().stream().map(f -> f.name())
                .filter(n -> !List.of("load", "sum", "quantiles", "version").contains(n))
                .map(n -> n.equals("lateCount") ? "lateSamples" : n).toList();
        assertThat(CsvMessageConverter.columnsOf(AggregateView.class)).containsAll(served);
    }

    @Test
    void anAggregateIsServedWithItsQuantilesFlatAndWithoutStorageFields() throws Exception {
        AggregateView row = aggregate("cpu.cores", Map.of("0.5", 0.44, "0.9", 0.52, "0.95", 0.55, "0.99", 0.59));
        JsonNode a = ApiJson.mapper().valueToTree(row);
        assertThat(names(a)).containsExactlyElementsOf(AGGREGATE_FIELDS);
        assertThat(csvHeader(List.of(row))).isEqualTo(String.join(",", AGGREGATE_FIELDS));
        assertThat(a.get("count").asLong()).isEqualTo(120);
        assertThat(a.get("warmupCount").asLong()).isEqualTo(20);
        assertThat(a.get("min").asDouble()).isEqualTo(0.3);
        assertThat(a.get("max").asDouble()).isEqualTo(0.6);
        assertThat(a.get("mean").asDouble()).isEqualTo(0.45);
        assertThat(a.get("lateSamples").asLong()).isEqualTo(4);
        assertThat(a.get("baselineDelta").asDouble()).isEqualTo(0.2);
        assertThat(a.get("kind").asString()).isEqualTo("GAUGE");
        assertThat(a.get("windowEnd").asString()).isEqualTo("2026-05-16T04:19:30Z");
        assertThat(List.of(a.get("p50").asDouble(), a.get("p90").asDouble(), a.get("p95").asDouble(),
                a.get("p99").asDouble())).containsExactly(0.44, 0.52, 0.55, 0.59);
        assertThat(a.get("resource").asBoolean()).as("cpu.cores is a resource").isTrue();
    }

    @Test
    void anAggregateWithoutQuantilesHasNullPercentiles() {
        JsonNode a = ApiJson.mapper().valueToTree(aggregate("throughput.requests.per_s", Map.of()));
        for (String p : List.of("p50", "p90", "p95", "p99")) {
            assertThat(a.get(p).isNull()).as(p).isTrue();
        }
        assertThat(a.get("resource").asBoolean()).as("the request rate is no resource").isFalse();
    }
}
