package dev.caplab.streams.fit;

import dev.caplab.analysis.source.SourceRole;
import dev.caplab.schema.event.Environment;
import dev.caplab.schema.event.RunEgressCeiling;
import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.aggregate.Partial;
import dev.caplab.streams.aggregate.SeriesStats;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * What a window's per-second partials say about each source: the role of each series ({@link SourceRole#of}, the one
 * rule) and the node ceiling C each resource is planned against. A host's ceiling is its own: its CPU count (the
 * distinct {@code cpu} labels of node_exporter's {@code node_cpu_seconds_total} or the host sampler's per-core
 * series) and its memory (node_exporter's {@code node_memory_MemTotal_bytes}, the host sampler's
 * {@code mem.limit.bytes}); a process group's or container's is the run's vCPU and memory
 * ({@link ResourceCeilings}), or its own memory limit ({@code mem.limit.bytes} of a cgroup or container) when it has
 * one. A pure function of the partials and the run's environment.
 */
public final class SourceFacts {

    private static final String NODE_CPU_SECONDS = "node_cpu_seconds_total";
    private static final String NODE_MEM_TOTAL = "node_memory_MemTotal_bytes";

    private final Map<String, SourceRole> roles = new HashMap<>();
    private final Map<String, SourceRole> sourceRoles = new HashMap<>();
    private final Map<String, Set<String>> cpus = new HashMap<>();
    private final Map<String, Double> hostMemory = new HashMap<>();
    private final Map<String, Double> memoryLimit = new HashMap<>();

    private SourceFacts() {
    }

    /** The facts of {@code partials} (any order). */
    public static SourceFacts of(List<Partial> partials) {
        SourceFacts f = new SourceFacts();
        for (Partial p : partials) {
            SourceRole role = f.roles.computeIfAbsent(key(p.source(), p.metric()),
                    k -> SourceRole.of(p.source(), p.metric(), p.labels()));
            if (role.planned()) {
                f.sourceRoles.merge(p.source(), role, (a, b) -> a == SourceRole.HOST ? a : b);
            }
            String cpu = p.labels().get(LabelNames.CPU);
            boolean perCpu = NODE_CPU_SECONDS.equals(p.metric()) || MetricNames.CPU_CORE_CORES.equals(p.metric())
                    || MetricNames.CPU_CORES.equals(p.metric());
            if (role == SourceRole.HOST && perCpu && cpu != null && !cpu.isBlank()) {
                f.cpus.computeIfAbsent(p.source(), k -> new HashSet<>()).add(cpu);
            }
            boolean limit = MetricNames.MEM_LIMIT_BYTES.equals(p.metric()) && p.count() > 0 && p.max() > 0;
            if (role == SourceRole.HOST && (NODE_MEM_TOTAL.equals(p.metric()) || limit)) {
                f.hostMemory.merge(p.source(), p.max(), Math::max);
            } else if (limit) {
                f.memoryLimit.merge(p.source(), p.max(), Math::max);
            }
        }
        return f;
    }

    /**
     * The role of the series {@code metric} of {@code source}: its own, else the role of the source's other planned
     * series, else {@link SourceRole#SUT} (a sum over a label group, or a series these partials do not hold).
     */
    public SourceRole role(String source, String metric) {
        SourceRole r = roles.get(key(source, metric));
        if (r == null && metric.endsWith(".loopback")) {
            r = roles.get(key(source, metric.substring(0, metric.length() - ".loopback".length())));
        }
        if (r != null) {
            return r;
        }
        return source.startsWith(SeriesStats.GROUP_PREFIX) ? SourceRole.SUT
                : sourceRoles.getOrDefault(source, SourceRole.SUT);
    }

    /**
     * The ceiling C of {@code metric} of {@code source} in the metric's unit, given the run's declared environment
     * and its effective egress; empty when unknown.
     */
    public OptionalDouble ceiling(String source, String metric, Environment env, Optional<RunEgressCeiling> egress) {
        boolean host = role(source, metric) == SourceRole.HOST;
        if (host && MetricNames.CPU_CORES.equals(metric) && cpus.containsKey(source)) {
            return OptionalDouble.of(cpus.get(source).size());
        }
        if (host && MetricNames.MEM_BYTES.equals(metric) && hostMemory.containsKey(source)) {
            return OptionalDouble.of(hostMemory.get(source));
        }
        if (!host && MetricNames.MEM_BYTES.equals(metric) && memoryLimit.containsKey(source)) {
            OptionalDouble run = ResourceCeilings.of(metric, env, egress);
            double own = memoryLimit.get(source);
            // a cgroup without a limit reports the host's memory: the run's memory, when smaller, still binds
            return OptionalDouble.of(run.isPresent() ? Math.min(own, run.getAsDouble()) : own);
        }
        return ResourceCeilings.of(metric, env, egress);
    }

    private static String key(String source, String metric) {
        return source + '|' + metric;
    }
}
