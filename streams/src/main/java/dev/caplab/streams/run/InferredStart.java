package dev.caplab.streams.run;

import static dev.caplab.schema.vocabulary.LabelNames.INSTANCE_TYPE;
import static dev.caplab.schema.vocabulary.LabelNames.PROVIDER;
import static dev.caplab.schema.vocabulary.LabelNames.REGION;
import static dev.caplab.schema.vocabulary.LabelNames.SUT;
import static dev.caplab.schema.vocabulary.LabelNames.SUT_VERSION;
import static dev.caplab.schema.vocabulary.LabelNames.TIER;
import static dev.caplab.schema.vocabulary.LabelNames.TOOL;

import dev.caplab.schema.event.Environment;
import dev.caplab.schema.event.RunOrigin;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SystemUnderTest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The RunStarted a run nobody declared gets from its samples: {@code startedAt} is its earliest sample (whatever
 * order the batches came in), its metadata the first value seen of each of these sample labels (the ones
 * {@code caplab ingest --sut/--sut-version/--provider/--region/--tier/--instance-type/--tool} set):
 * {@value dev.caplab.schema.vocabulary.LabelNames#SUT}, {@value dev.caplab.schema.vocabulary.LabelNames#SUT_VERSION}, {@value dev.caplab.schema.vocabulary.LabelNames#PROVIDER}, {@value dev.caplab.schema.vocabulary.LabelNames#REGION}, {@value dev.caplab.schema.vocabulary.LabelNames#TIER},
 * {@value dev.caplab.schema.vocabulary.LabelNames#INSTANCE_TYPE}, {@value dev.caplab.schema.vocabulary.LabelNames#TOOL}. Without them name and provider are {@value #UNKNOWN} (filled by a later
 * batch that has them), the tool is the first batch's ingest adapter.
 */
public final class InferredStart {

    /** Every label read as run metadata, in the order above. */
    public static final List<String> LABELS = List.of(SUT, SUT_VERSION, PROVIDER, REGION, TIER, INSTANCE_TYPE, TOOL);
    /** The name and provider of a run whose samples did not say. */
    public static final String UNKNOWN = dev.caplab.schema.vocabulary.Unstated.VALUE;

    private InferredStart() {
    }

    /**
     * {@code previous} (may be null) widened by {@code samples}: the earlier start, and metadata it did not have yet.
     * Equal to {@code previous} when the samples change nothing.
     */
    /** {@code sut=true/false} says whether a source belongs to the system under test; it is not the system's name. */
    private static boolean membershipMark(String key, String value) {
        return SUT.equals(key) && ("true".equalsIgnoreCase(value) || "false".equalsIgnoreCase(value));
    }

    static RunStarted merge(RunStarted previous, String runId, String adapter, List<Sample> samples) {
        long earliest = previous == null ? Long.MAX_VALUE : micros(previous.getStartedAt());
        Map<String, String> seen = new java.util.LinkedHashMap<>();
        for (Sample s : samples) {
            earliest = Math.min(earliest, micros(s.getTimestamp()));
            s.getLabels().forEach((k, v) -> {
                String key = k.toString();
                if (LABELS.contains(key) && !v.toString().isBlank() && !membershipMark(key, v.toString())) {
                    seen.putIfAbsent(key, v.toString());
                }
            });
        }
        if (earliest == Long.MAX_VALUE) {
            return previous;
        }
        SystemUnderTest sut = previous == null ? null : previous.getSut();
        Environment env = previous == null ? null : previous.getEnvironment();
        String name = keep(sut == null || UNKNOWN.equals(str(sut.getName())) ? null : str(sut.getName()), seen, SUT);
        String provider = keep(env == null || UNKNOWN.equals(str(env.getProvider())) ? null : str(env.getProvider()),
                seen, PROVIDER);
        String tool = previous != null ? str(previous.getTool()) : seen.getOrDefault(TOOL, adapter);
        RunStarted next = RunStarted.newBuilder().setRunId(runId)
                .setStartedAt(dev.caplab.streams.Micros.toInstant(earliest))
                .setSut(SystemUnderTest.newBuilder().setName(name == null ? UNKNOWN : name)
                        .setVersion(keep(sut == null ? null : str(sut.getVersion()), seen, SUT_VERSION)).build())
                .setEnvironment(Environment.newBuilder().setProvider(provider == null ? UNKNOWN : provider)
                        .setRegion(keep(env == null ? null : str(env.getRegion()), seen, REGION))
                        .setTier(keep(env == null ? null : str(env.getTier()), seen, TIER))
                        .setInstanceType(keep(env == null ? null : str(env.getInstanceType()), seen, INSTANCE_TYPE))
                        .build())
                .setTool(tool).setOrigin(RunOrigin.INFERRED).build();
        return next.equals(previous) ? previous : next;
    }

    private static String keep(String previous, Map<String, String> seen, String label) {
        return previous != null ? previous : seen.get(label);
    }

    private static String str(CharSequence s) {
        return Optional.ofNullable(s).map(CharSequence::toString).orElse(null);
    }

    private static long micros(Instant t) {
        return dev.caplab.streams.Micros.of(t);
    }
}
