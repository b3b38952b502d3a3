package dev.caplab.streams.run;

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
 * {@value #SUT}, {@value #SUT_VERSION}, {@value #PROVIDER}, {@value #REGION}, {@value #TIER},
 * {@value #INSTANCE_TYPE}, {@value #TOOL}. Without them name and provider are {@value #UNKNOWN} (filled by a later
 * batch that has them), the tool is the first batch's ingest adapter.
 */
public final class InferredStart {

    public static final String SUT = "sut";
    public static final String SUT_VERSION = "sut_version";
    public static final String PROVIDER = "provider";
    public static final String REGION = "region";
    public static final String TIER = "tier";
    public static final String INSTANCE_TYPE = "instance_type";
    public static final String TOOL = "tool";
    /** Every label read as run metadata, in the order above. */
    public static final List<String> LABELS = List.of(SUT, SUT_VERSION, PROVIDER, REGION, TIER, INSTANCE_TYPE, TOOL);
    /** The name and provider of a run whose samples did not say. */
    public static final String UNKNOWN = "unknown";

    private InferredStart() {
    }

    /** True when a client sent {@code r}, false when the streams app inferred it. */
    public static boolean declared(RunStarted r) {
        return r.getOrigin() != RunOrigin.INFERRED;
    }

    /**
     * {@code previous} (may be null) widened by {@code samples}: the earlier start, and metadata it did not have yet.
     * Equal to {@code previous} when the samples change nothing.
     */
    static RunStarted merge(RunStarted previous, String runId, String adapter, List<Sample> samples) {
        long earliest = previous == null ? Long.MAX_VALUE : micros(previous.getStartedAt());
        Map<String, String> seen = new java.util.LinkedHashMap<>();
        for (Sample s : samples) {
            earliest = Math.min(earliest, micros(s.getTimestamp()));
            s.getLabels().forEach((k, v) -> {
                String key = k.toString();
                if (LABELS.contains(key) && !v.toString().isBlank()) {
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
