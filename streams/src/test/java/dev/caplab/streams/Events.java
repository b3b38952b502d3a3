package dev.caplab.streams;

import dev.caplab.schema.event.Comparator;
import dev.caplab.schema.event.Environment;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunOrigin;
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

/** Builders of input events for tests; times are seconds since the epoch of the synthetic run. */
public final class Events {

    public static final long T0_MICROS = 1_750_000_000_000_000L;

    private Events() {
    }

    public static Instant at(double seconds) {
        return Micros.toInstant(T0_MICROS + Math.round(seconds * 1e6));
    }

    public static RunStarted runStarted(String runId, String loadExpression, List<SloRule> rules, double vcpu) {
        return RunStarted.newBuilder().setRunId(runId).setStartedAt(at(0))
                .setSut(SystemUnderTest.newBuilder().setName("livekit").build())
                .setEnvironment(Environment.newBuilder().setProvider("test").setVcpu(vcpu)
                        .setMemoryBytes(8L << 30).setMeasuredEgressMbps(1000.0).build())
                .setTool("synthetic").setSloRules(rules).setLoadExpression(loadExpression)
                .setOrigin(RunOrigin.DECLARED).build();
    }

    public static SloRule rule(String name, String metric, String statistic, Comparator c, double threshold) {
        return SloRule.newBuilder().setName(name).setMetric(metric).setStatistic(statistic).setComparator(c)
                .setThreshold(threshold).build();
    }

    public static StepStarted stepStarted(String runId, int index, Map<String, Double> load, double atSeconds,
            double warmupSeconds) {
        return StepStarted.newBuilder().setRunId(runId).setStepIndex(index).setLoad(Map.copyOf(load))
                .setStartedAt(at(atSeconds)).setWarmupMicros(Math.round(warmupSeconds * 1e6)).build();
    }

    public static StepEnded stepEnded(String runId, int index, double atSeconds) {
        return StepEnded.newBuilder().setRunId(runId).setStepIndex(index).setEndedAt(at(atSeconds)).build();
    }

    public static RunEnded runEnded(String runId, double atSeconds) {
        return RunEnded.newBuilder().setRunId(runId).setEndedAt(at(atSeconds)).setStatus(RunStatus.COMPLETED).build();
    }

    public static Sample gauge(String source, String metric, double atSeconds, double value) {
        return sample(source, metric, SampleKind.GAUGE, atSeconds, value, Map.of());
    }

    public static Sample sample(String source, String metric, SampleKind kind, double atSeconds, double value,
            Map<String, String> labels) {
        return Sample.newBuilder().setTimestamp(at(atSeconds)).setSource(source).setMetric(metric).setKind(kind)
                .setValue(value).setLabels(Map.copyOf(labels)).build();
    }

    public static SampleBatch batch(String runId, List<Sample> samples) {
        return SampleBatch.newBuilder().setRunId(runId).setAdapter("test").setReceivedAt(at(0))
                .setSamples(samples).build();
    }
}
