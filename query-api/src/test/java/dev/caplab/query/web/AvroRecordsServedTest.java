package dev.caplab.query.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.caplab.schema.event.BottleneckRule;
import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.schema.event.RunBottleneck;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunWarning;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.Segment;
import dev.caplab.schema.event.StepAggregate;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecordBase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.mock.http.MockHttpOutputMessage;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The schema module's Avro records served as JSON and CSV under their schema's field names, in the schema's order
 * (the lists below are copied from {@code derived.avsc} and {@code common.avsc}), with nothing of Avro's own, and
 * renamed or hidden where a mix-in or a view says so.
 */
class AvroRecordsServedTest {

    private static final JsonMapper JSON = ApiJson.mapper();
    /** The module alone, without the mix-ins the API registers for the records it serves. */
    private static final JsonMapper MODULE_ONLY = JsonMapper.builder().addModule(new AvroRecordsModule()).build();
    private static final Instant AT = Instant.parse("2026-05-16T04:17:30.123456Z");

    private static final List<String> CAPACITY_FIT = List.of("runId", "source", "metric", "model", "modelVersion",
            "loadExpression", "stepsUsed", "segments", "breakpoints", "breakpointPValue", "rSquared", "cliff",
            "cliffStepIndex", "capacity", "margin", "safeCapacityX", "bottleneck", "fittedAt", "version", "role");
    private static final List<String> SEGMENT = List.of("fromX", "toX", "intercept", "slope", "slopeStdErr",
            "interceptStdErr", "slopeLower95", "slopeUpper95");
    /** A fit as the API serves it: without its version (storage's), its segments without what the store drops. */
    private static final List<String> SERVED_FIT = List.of("runId", "source", "metric", "model", "modelVersion",
            "loadExpression", "stepsUsed", "segments", "breakpoints", "breakpointPValue", "rSquared", "cliff",
            "cliffStepIndex", "capacity", "margin", "safeCapacityX", "bottleneck", "fittedAt", "role");
    private static final List<String> BREAKPOINT = List.of("x", "stdErr", "lower95", "upper95");
    private static final List<String> STEP_AGGREGATE = List.of("runId", "stepIndex", "load", "x", "source", "metric",
            "kind", "count", "warmupCount", "sum", "min", "max", "mean", "sustained", "peak", "quantiles",
            "ratePerSecond", "baselineDelta", "windowStart", "windowEnd", "contaminated", "version", "lateCount");
    /** The conclusion's fields less its run id, throughput limit and egress ceiling: ConclusionMixIn hides them. */
    private static final List<String> RUN_CONCLUSION = List.of("maxStableX", "maxStableStepIndex",
            "firstFailingX", "firstFailingStepIndex", "stepsJudged", "stepsSkipped", "bottleneck", "margin",
            "resources", "runClosed", "model", "concludedAt", "version", "warnings", "rulesFrom");
    private static final List<String> RUN_BOTTLENECK = List.of("source", "metric", "rule", "value", "stepIndex",
            "role");

    /** Renames one field and hides another of an Avro record, as a feature that serves it under older names does. */
    abstract static class LateSamplesUnversioned {

        @JsonProperty("lateSamples")
        abstract long getLateCount();

        @JsonIgnore
        abstract long getVersion();
    }

    /** A view adding a computed property to an Avro record it holds unwrapped. */
    record FitView(@JsonUnwrapped CapacityFit fit) {

        @JsonProperty("kneeX")
        Double kneeX() {
            return fit.getBreakpoints().isEmpty() ? null : fit.getBreakpoints().getFirst().getX();
        }
    }

    private static CapacityFit kneed() {
        return CapacityFit.newBuilder().setRunId("ep19").setSource("node").setMetric("cpu.cores")
                .setModel("segmented-1").setModelVersion("1").setLoadExpression("sessions").setStepsUsed(5)
                .setSegments(List.of(
                        Segment.newBuilder().setFromX(10).setToX(17).setIntercept(0.1).setSlope(0.02)
                                .setSlopeStdErr(0.001).build(),
                        Segment.newBuilder().setFromX(17).setToX(19).setIntercept(-2.45).setSlope(0.17).build()))
                .setBreakpoints(List.of(Breakpoint.newBuilder().setX(17).setStdErr(0.4).setLower95(16.2)
                        .setUpper95(17.8).build()))
                .setRSquared(0.99).setCapacity(1.0).setSafeCapacityX(16.0).setBottleneck(true).setFittedAt(AT)
                .setVersion(7).setRole("sut").build();
    }

    private static StepAggregate aggregate() {
        return StepAggregate.newBuilder().setRunId("ep19").setStepIndex(2).setLoad(Map.of("sessions", 17.0))
                .setX(17.0).setSource("node").setMetric("cpu.cores").setKind(SampleKind.GAUGE).setCount(120)
                .setWarmupCount(20).setSum(54.0).setMin(0.3).setMax(0.6).setMean(0.45).setSustained(0.44)
                .setPeak(0.6).setQuantiles(Map.of("0.5", 0.44)).setWindowStart(AT)
                .setWindowEnd(AT.plusSeconds(120)).setVersion(3).setLateCount(4).build();
    }

    private static RunConclusion concluded() {
        return RunConclusion.newBuilder().setRunId("ep19").setMaxStableX(16.0).setMaxStableStepIndex(1)
                .setStepsJudged(3).setStepsSkipped(0)
                .setBottleneck(RunBottleneck.newBuilder().setSource("node").setMetric("cpu.cores")
                        .setRule(BottleneckRule.SMALLEST_SAFE_CAPACITY).setValue(16.0).setRole("sut").build())
                .setMargin(0.6)
                .setResources(List.of(ResourceEstimate.newBuilder().setSource("node").setMetric("cpu.cores")
                        .setIntercept(0.1).setSlope(0.02).setDegreesOfFreedom(3).setPreKneeSteps(5).setFromX(10)
                        .setToX(17).build()))
                .setModel("segmented-1").setConcludedAt(AT).setVersion(9)
                .setWarnings(List.of(new RunWarning("SHORT_LAST_LEVEL", "the last level ran 20 s"))).build();
    }

    private static List<String> names(JsonNode node) {
        return node.propertyNames().stream().toList();
    }

    private static String csv(Object body) throws Exception {
        MockHttpOutputMessage out = new MockHttpOutputMessage();
        new CsvMessageConverter().write(body, CsvMessageConverter.TEXT_CSV, out);
        return out.getBodyAsString(StandardCharsets.UTF_8);
    }

    @Test
    void aFitHasItsSchemaFieldsInSchemaOrderAndNothingOfAvro() {
        JsonNode fit = MODULE_ONLY.valueToTree(kneed());
        assertThat(names(fit)).containsExactlyElementsOf(CAPACITY_FIT);
        assertThat(names(fit.get("segments").get(0))).containsExactlyElementsOf(SEGMENT);
        assertThat(names(fit.get("breakpoints").get(0))).containsExactlyElementsOf(BREAKPOINT);
        assertThat(fit.get("rSquared").asDouble()).isEqualTo(0.99);
        assertThat(fit.get("breakpoints").get(0).get("lower95").asDouble()).isEqualTo(16.2);
        assertThat(fit.get("segments").get(1).get("intercept").asDouble()).isEqualTo(-2.45);
        assertThat(fit.get("segments").get(1).get("slopeStdErr").isNull()).as("a null stays a null").isTrue();
        assertThat(fit.get("breakpointPValue").isNull()).isTrue();
        assertThat(fit.get("margin").asDouble()).as("the schema's default").isEqualTo(0.6);
        assertThat(fit.get("version").asLong()).isEqualTo(7);
    }

    @Test
    void anInstantIsWrittenAsTheIsoTextOfAJavaRecordsInstant() {
        record Stamped(Instant fittedAt) {
        }
        JsonNode fit = JSON.valueToTree(kneed());
        assertThat(fit.get("fittedAt").isString()).isTrue();
        assertThat(fit.get("fittedAt").asString()).isEqualTo("2026-05-16T04:17:30.123456Z");
        assertThat(fit.get("fittedAt")).isEqualTo(JSON.valueToTree(new Stamped(AT)).get("fittedAt"));
    }

    @Test
    void anAggregateHasItsMapsAndItsKindByName() {
        // the module alone: the API's own mix-in renames and hides some of an aggregate's fields (StepAggregateMixIn)
        JsonNode a = JsonMapper.builder().addModule(new AvroRecordsModule(Map.of())).build().valueToTree(aggregate());
        assertThat(names(a)).containsExactlyElementsOf(STEP_AGGREGATE);
        assertThat(a.get("kind").asString()).isEqualTo("GAUGE");
        assertThat(a.get("load").get("sessions").asDouble()).isEqualTo(17.0);
        assertThat(a.get("quantiles").get("0.5").asDouble()).isEqualTo(0.44);
        assertThat(a.get("windowEnd").asString()).isEqualTo("2026-05-16T04:19:30.123456Z");
        assertThat(a.get("lateCount").asLong()).isEqualTo(4);
    }

    @Test
    void aConclusionNestsItsRecordsTheSameWay() {
        JsonNode c = JSON.valueToTree(concluded());
        assertThat(names(c)).containsExactlyElementsOf(RUN_CONCLUSION);
        assertThat(names(c.get("bottleneck"))).containsExactlyElementsOf(RUN_BOTTLENECK);
        assertThat(c.get("bottleneck").get("rule").asString()).isEqualTo("SMALLEST_SAFE_CAPACITY");
        assertThat(c.get("bottleneck").get("stepIndex").isNull()).isTrue();
        assertThat(names(c.get("resources").get(0))).startsWith("source", "metric", "intercept", "slope",
                "interceptVariance").contains("rSquared", "safeCapacityX", "kneeX", "lastStableX", "role");
        assertThat(names(c.get("warnings").get(0))).containsExactly("kind", "message");
        assertThat(c.get("concludedAt").asString()).isEqualTo("2026-05-16T04:17:30.123456Z");
    }

    @Test
    void aMixInRenamesAFieldInItsPlaceAndHidesAnother() {
        Map<Class<? extends SpecificRecordBase>, Class<?>> mixIns = Map.of(StepAggregate.class,
                LateSamplesUnversioned.class);
        JsonMapper json = JsonMapper.builder().addModule(new AvroRecordsModule(mixIns)).build();
        JsonNode a = json.valueToTree(aggregate());
        List<String> expected = new ArrayList<>(STEP_AGGREGATE);
        expected.remove("version");
        expected.set(expected.indexOf("lateCount"), "lateSamples");
        assertThat(names(a)).containsExactlyElementsOf(expected);
        assertThat(a.get("lateSamples").asLong()).isEqualTo(4);
        assertThat(names(json.valueToTree(kneed()))).as("other records keep their fields")
                .containsExactlyElementsOf(CAPACITY_FIT);
    }

    /** The order is the schema's, not whatever order reflection or a mapper setting would give. */
    @Test
    void theSchemasOrderHoldsWhereTheMapperWouldSortAlphabetically() {
        JsonMapper alphabetical = JsonMapper.builder()
                .addModule(new AvroRecordsModule(Map.of(StepAggregate.class, LateSamplesUnversioned.class)))
                .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                .disable(MapperFeature.SORT_CREATOR_PROPERTIES_FIRST).build();
        assertThat(names(alphabetical.valueToTree(kneed()))).containsExactlyElementsOf(CAPACITY_FIT);
        List<String> expected = new ArrayList<>(STEP_AGGREGATE);
        expected.remove("version");
        expected.set(expected.indexOf("lateCount"), "lateSamples");
        assertThat(names(alphabetical.valueToTree(aggregate()))).containsExactlyElementsOf(expected);
    }

    @Test
    void aViewUnwrapsTheRecordAndAddsItsOwnProperties() {
        JsonNode view = MODULE_ONLY.valueToTree(new FitView(kneed()));
        List<String> expected = new ArrayList<>(CAPACITY_FIT);
        expected.add("kneeX");
        assertThat(names(view)).containsExactlyElementsOf(expected);
        assertThat(view.get("kneeX").asDouble()).isEqualTo(17);
        assertThat(view.get("rSquared").asDouble()).isEqualTo(0.99);
    }

    @Test
    void csvColumnsAreTheJsonProperties() throws Exception {
        List<String> lines = csv(List.of(kneed())).lines().toList();
        assertThat(lines.getFirst()).isEqualTo(String.join(",", SERVED_FIT));
        assertThat(lines.get(1)).isEqualTo("ep19,node,cpu.cores,segmented-1,1,sessions,5,"
                + "\"[\"\"fromX:10.0 toX:17.0 intercept:0.1 slope:0.02 slopeStdErr:0.001\"\","
                + "\"\"fromX:17.0 toX:19.0 intercept:-2.45 slope:0.17 slopeStdErr:null\"\"]\","
                + "\"[\"\"x:17.0 stdErr:0.4 lower95:16.2 upper95:17.8\"\"]\","
                + ",0.99,false,,1.0,0.6,16.0,true,2026-05-16T04:17:30.123456Z,sut");
        assertThat(csv(List.of(Breakpoint.newBuilder().setX(18.5).build())))
                .isEqualTo("x,stdErr,lower95,upper95\r\n18.5,,,\r\n");
        String viewHeader = csv(new FitView(kneed())).lines().findFirst().orElseThrow();
        assertThat(viewHeader).isEqualTo(String.join(",", SERVED_FIT) + ",kneeX");
    }

    @Test
    void csvAcceptsAvroRecordsAndListsOfThem() {
        CsvMessageConverter csv = new CsvMessageConverter();
        assertThat(csv.canWrite(new ParameterizedTypeReference<List<CapacityFit>>() { }.getType(), List.class,
                CsvMessageConverter.TEXT_CSV)).isTrue();
        assertThat(csv.canWrite(CapacityFit.class, CapacityFit.class, CsvMessageConverter.TEXT_CSV)).isTrue();
        assertThat(csv.canWrite(new ParameterizedTypeReference<List<String>>() { }.getType(), List.class,
                CsvMessageConverter.TEXT_CSV)).as("a list of text is no table").isFalse();
    }

    @Test
    void springsJsonMapperWritesAvroRecordsTheSameWay() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class))
                .withUserConfiguration(ApiWebConfiguration.class)
                .run(context -> {
                    JsonNode fit = context.getBean(JsonMapper.class).valueToTree(kneed());
                    assertThat(names(fit)).containsExactlyElementsOf(SERVED_FIT);
                });
    }
}
