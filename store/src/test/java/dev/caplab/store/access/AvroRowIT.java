package dev.caplab.store.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.BottleneckRule;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.schema.event.RunBottleneck;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunThroughputLimit;
import dev.caplab.schema.event.RunWarning;
import dev.caplab.schema.event.Segment;
import dev.caplab.store.schema.Table;
import dev.caplab.store.testing.ClickHouseTestExtension;
import dev.caplab.store.testing.TestDatabase;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A schema's Avro record written to its table and read back by a codec derived from the schema: every stored field
 * the same, a field the store keeps no column for its schema default, a nested record flattened into the row's own
 * columns, a list of records as tuples and as a JSON array, an enum by its name. The expected records are built
 * here, field by field.
 */
@ExtendWith(ClickHouseTestExtension.class)
class AvroRowIT {

    private static final Instant T0 = Instant.parse("2026-12-07T10:00:00.123456Z");

    private final TestDatabase db;

    AvroRowIT(TestDatabase db) {
        this.db = db;
    }

    @Test
    void aFitWithItsPiecesRoundTripsAndThePiecesStatisticsTheStoreDoesNotKeepReadBackAsTheirDefault() {
        RowCodec<CapacityFit> codec = RowCodec.derived(Table.CAPACITY_FITS.sqlName(), CapacityFit.class, true,
                AvroStorage.asNamed().notStored("segments.interceptStdErr", "segments.slopeLower95",
                        "segments.slopeUpper95"));
        CapacityFit fit = CapacityFit.newBuilder().setRunId("r1").setSource("sfu").setMetric("cpu").setModel(
                "segmented-1").setModelVersion("1").setLoadExpression("users").setStepsUsed(6).setSegments(List.of(
                Segment.newBuilder().setFromX(12).setToX(50).setIntercept(3.5).setSlope(0.25).setSlopeStdErr(0.01)
                        .setInterceptStdErr(0.2).setSlopeLower95(0.2).setSlopeUpper95(0.3).build(),
                Segment.newBuilder().setFromX(50).setToX(75).setIntercept(-40).setSlope(1.1).build()))
                .setBreakpoints(List.of(Breakpoint.newBuilder().setX(50).setStdErr(2.0).setLower95(46.0)
                        .setUpper95(54.0).build()))
                .setBreakpointPValue(0.001).setRSquared(0.99).setCliff(true).setCliffStepIndex(4).setCapacity(200.0)
                .setMargin(0.6).setSafeCapacityX(40.0).setBottleneck(true).setFittedAt(T0).setVersion(3)
                .setRole("sut").build();
        TableAccess<CapacityFit> table = new TableAccess<>(db.dataSource(), codec);
        table.insertBatch(List.of(fit), "t1");

        CapacityFit expected = CapacityFit.newBuilder(fit).setSegments(List.of(
                Segment.newBuilder().setFromX(12).setToX(50).setIntercept(3.5).setSlope(0.25).setSlopeStdErr(0.01)
                        .build(),
                Segment.newBuilder().setFromX(50).setToX(75).setIntercept(-40).setSlope(1.1).build())).build();
        assertThat(table.select("run_id = ?", "metric", "r1")).containsExactly(expected);
        assertThat(codec.columns()).startsWith("run_id", "source", "metric", "model", "model_version",
                "load_expression", "steps_used", "segments", "breakpoints", "breakpoint_p_value", "r_squared");
    }

    @Test
    void aConclusionKeepsItsBottleneckAndLimitAsColumnsAndItsWarningsAsJson() {
        RowCodec<RunConclusion> codec = RunConclusionRepository.CODEC;
        RunConclusion conclusion = RunConclusion.newBuilder().setRunId("r2").setMaxStableX(50.0)
                .setMaxStableStepIndex(2).setStepsJudged(4).setStepsSkipped(1)
                .setBottleneck(RunBottleneck.newBuilder().setSource("sfu").setMetric("cpu")
                        .setRule(BottleneckRule.SMALLEST_SAFE_CAPACITY).setValue(40.0).setRole("sut").build())
                .setMargin(0.6).setResources(List.of(ResourceEstimate.newBuilder().setSource("sfu").setMetric("cpu")
                        .setIntercept(3.5).setSlope(0.25).setSlopeVariance(0.0004).setDegreesOfFreedom(3).setPreKneeSteps(5)
                        .setFromX(12).setToX(50).setCeiling(100.0).setSafeCapacityX(40.0).setKneeX(50.0).build()))
                .setModel("segmented-1").setConcludedAt(T0).setVersion(7)
                .setWarnings(List.of(RunWarning.newBuilder().setKind("NO_STEP").setMessage("no step \"x\"").build()))
                .setRulesFrom("run")
                .setThroughputLimit(RunThroughputLimit.newBuilder().setKneeX(60).setPlateauRatePerSecond(900)
                        .setSlopeBeforePerX(15).setSlopeAfterPerX(0.5).setStepsUsed(6).setFittedAt(T0).build())
                .build();
        TableAccess<RunConclusion> table = new TableAccess<>(db.dataSource(), codec);
        table.insertBatch(List.of(conclusion), "t2");

        assertThat(table.select("run_id = ?", "run_id", "r2")).containsExactly(conclusion);
        assertThat(codec.columns()).contains("bottleneck_source", "bottleneck_rule", "bottleneck_role", "throughput_knee_x",
                "egress_ceiling_mbps", "warnings_json");
    }
}
