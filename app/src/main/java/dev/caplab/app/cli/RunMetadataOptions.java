package dev.caplab.app.cli;

import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.ingest.publish.SampleSink;
import dev.caplab.schema.event.Sample;
import dev.caplab.streams.run.InferredStart;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code caplab ingest}'s run metadata: for a run nobody starts with {@code caplab run start}, these become the
 * labels the inferred run reads its metadata from ({@link InferredStart}), set on every sample that lacks them.
 * A later {@code caplab run start} with the same id outranks them.
 */
public final class RunMetadataOptions {

    @Option(names = "--sut", paramLabel = "NAME", description = "System under test (label " + LabelNames.SUT + ").")
    String sut;

    @Option(names = "--sut-version", paramLabel = "VERSION",
            description = "Its version (label " + LabelNames.SUT_VERSION + ").")
    String sutVersion;

    @Option(names = "--provider", paramLabel = "NAME", description = "Provider (label " + LabelNames.PROVIDER + ").")
    String provider;

    @Option(names = "--region", paramLabel = "NAME", description = "Region (label " + LabelNames.REGION + ").")
    String region;

    @Option(names = "--tier", paramLabel = "NAME", description = "Machine tier (label " + LabelNames.TIER + ").")
    String tier;

    @Option(names = "--instance-type", paramLabel = "NAME",
            description = "Instance type (label " + LabelNames.INSTANCE_TYPE + ").")
    String instanceType;

    @Option(names = "--tool", paramLabel = "NAME",
            description = "Load tool (label " + LabelNames.TOOL + "; default: the format).")
    String tool;

    @Option(names = "--label", paramLabel = "KEY=VALUE",
            description = "Any other label for every sample (repeatable), e.g. role=loadgen on the load generator's "
                    + "host sampler, so caplab can tell when the generator, not the server, limited throughput.")
    Map<String, String> extra = new LinkedHashMap<>();

    /** The labels given: {@code --label} ones, then the named options by their {@link InferredStart} names. */
    Map<String, String> labels() {
        Map<String, String> out = new LinkedHashMap<>();
        extra.forEach((k, v) -> {
            if (k.isBlank()) {
                throw new IllegalArgumentException("--label " + k + "=" + v + ": the key must not be blank");
            }
            out.put(k, v);
        });
        put(out, LabelNames.SUT, sut);
        put(out, LabelNames.SUT_VERSION, sutVersion);
        put(out, LabelNames.PROVIDER, provider);
        put(out, LabelNames.REGION, region);
        put(out, LabelNames.TIER, tier);
        put(out, LabelNames.INSTANCE_TYPE, instanceType);
        put(out, LabelNames.TOOL, tool);
        return out;
    }

    /** {@code sink}, with the given labels set on every sample that does not carry them already. */
    SampleSink labelling(SampleSink sink) {
        Map<String, String> labels = labels();
        if (labels.isEmpty()) {
            return sink;
        }
        return (runId, adapter, samples) -> sink.publish(runId, adapter, labelled(samples, labels));
    }

    static List<Sample> labelled(List<Sample> samples, Map<String, String> labels) {
        return samples.stream().map(s -> {
            Map<String, String> merged = new LinkedHashMap<>(labels);
            merged.putAll(s.getLabels()); // the sample's own label wins
            return Sample.newBuilder(s).setLabels(merged).build();
        }).toList();
    }

    private static void put(Map<String, String> out, String key, String value) {
        if (value != null && !value.isBlank()) {
            out.put(key, value);
        }
    }
}
