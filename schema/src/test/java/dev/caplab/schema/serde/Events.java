package dev.caplab.schema.serde;

import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.Comparator;
import dev.caplab.schema.event.Environment;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.RunStatus;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SloRule;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.event.SystemUnderTest;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Fixed example events for serde tests; timestamps have microsecond precision, as the schema stores them. */
final class Events {

    static final Instant T0 = Instant.parse("2026-03-01T10:00:00.123456Z");

    private Events() {
    }

    static RunStarted runStarted() {
        return RunStarted.newBuilder()
                .setRunId("run-1").setStartedAt(T0)
                .setSut(SystemUnderTest.newBuilder().setName("livekit").setVersion("1.8.0").build())
                .setEnvironment(Environment.newBuilder().setProvider("hetzner").setInstanceType("cx22").setVcpu(2.0)
                        .setMemoryBytes(4L << 30).setNominalEgressMbps(1000.0).build())
                .setTool("k6").setLabels(Map.of("team", "rtc"))
                .setPlannedSteps(List.of(Map.of("users", 12.0), Map.of("users", 25.0)))
                .setSloRules(List.of(SloRule.newBuilder().setName("p95(http_req_duration)<=500")
                        .setMetric("http_req_duration").setStatistic("p95").setComparator(Comparator.LE)
                        .setThreshold(500).build()))
                .setLoadExpression("users")
                .build();
    }

    static StepStarted stepStarted() {
        return StepStarted.newBuilder().setRunId("run-1").setStepIndex(2)
                .setLoad(Map.of("publishers", 10.0, "subscribers", 10.0)).setStartedAt(T0).setWarmupMicros(20_000_000L)
                .build();
    }

    static StepEnded stepEnded() {
        return StepEnded.newBuilder().setRunId("run-1").setStepIndex(2).setEndedAt(T0.plusSeconds(120)).build();
    }

    static RunEnded runEnded() {
        return RunEnded.newBuilder().setRunId("run-1").setEndedAt(T0.plusSeconds(600)).setStatus(RunStatus.ABORTED)
                .setReason("step 3 failed").build();
    }

    static Annotation annotation() {
        return Annotation.newBuilder().setRunId("run-1").setAt(T0).setText("stopped competing container").build();
    }

    static SampleBatch sampleBatch() {
        Sample cpu = Sample.newBuilder().setTimestamp(T0).setSource("host-a").setMetric("cpu.cores")
                .setKind(SampleKind.GAUGE).setValue(0.35).setLabels(Map.of("core", "total")).build();
        Sample tx = Sample.newBuilder().setTimestamp(T0.plusMillis(1)).setSource("host-a").setMetric("net.tx.bytes")
                .setKind(SampleKind.COUNTER).setValue(1.5e9).build();
        return SampleBatch.newBuilder().setRunId("run-1").setAdapter("influx-line").setReceivedAt(T0)
                .setSamples(List.of(cpu, tx)).build();
    }
}
