package dev.caplab.analysis.source;

import dev.caplab.schema.vocabulary.LabelNames;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a source is to a test (DESIGN "Source role"), and the one rule that decides it for a series from its metric
 * and labels ({@link #of}). Bottlenecks, capacity, plans and charts are about {@link #SUT} and {@link #HOST} sources
 * only ({@link #planned}); an {@link #AGENT}'s own CPU is never the answer; the {@link #LOADGEN} only says whether
 * the generator limited the throughput.
 */
public enum SourceRole {
    /** The system under test: a process, process group, container or node of it. */
    SUT,
    /** The machine the system runs on, measured as a whole (node_exporter, caplab's /proc host sampler). */
    HOST,
    /** The load generator (its host sampler run with {@code role=loadgen}). */
    LOADGEN,
    /** A monitoring agent: an exporter's, Prometheus', Telegraf's, cAdvisor's or caplab's own sampler's process. */
    AGENT;

    /** Exporter recipe of node_exporter's host-wide series (ingest's {@code ExporterRecipes.NODE_EXPORTER}). */
    public static final String NODE_EXPORTER_RECIPE = "node_exporter";
    /**
     * Exporter recipe of the standard {@code process_*} series of the scraped process itself (ingest's
     * {@code ExporterRecipes.PROCESS}): the exporter's or Prometheus' own process, an agent.
     */
    public static final String PROCESS_RECIPE = "process";
    /** The {@link LabelNames#SAMPLER} of the /proc host sampler (ingest's {@code HostSampler.ADAPTER}). */
    public static final String HOST_SAMPLER = "host-sampler";

    /** The monitoring agents' own processes and containers, by process group or container name (Linux comm is 15 chars). */
    private static final Pattern AGENT_NAME = Pattern.compile(
            "(prometheus|node[-_]?exporter|process[-_]?exporter|cadvisor|telegraf|otelcol|alloy|grafana-agent)"
                    + "([-_.].*)?", Pattern.CASE_INSENSITIVE);
    /** Raw series agents report about themselves: Telegraf's internal plugin, Prometheus', cAdvisor's, Go's. */
    private static final Set<String> AGENT_METRIC_PREFIXES = Set.of("internal_", "prometheus_", "promhttp_",
            "cadvisor_", "scrape_", "process_", "go_", "sampler.");

    /** The label value of this role, e.g. {@code sut}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** True for the roles whose resources are fitted, planned, charted and can be the bottleneck. */
    public boolean planned() {
        return this == SUT || this == HOST;
    }

    /** The role a {@code role} label value names, if it names one. */
    public static Optional<SourceRole> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        for (SourceRole r : values()) {
            if (r.label().equalsIgnoreCase(value.strip())) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    /**
     * The role of one series of {@code source}: its {@code role} label when it names a role; else inferred — the
     * scraped process' own {@code process_*} series, caplab's sampler's own cost, agents' self-metrics and the
     * processes or containers of agents are {@link #AGENT}; node_exporter's and the host sampler's host-wide
     * series are {@link #HOST}; everything else (process groups, containers, cgroups, tools) is {@link #SUT}.
     */
    public static SourceRole of(String source, String metric, Map<String, String> labels) {
        Optional<SourceRole> labelled = parse(labels.get(LabelNames.ROLE));
        if (labelled.isPresent()) {
            return labelled.get();
        }
        String recipe = labels.get(LabelNames.RECIPE);
        if (PROCESS_RECIPE.equals(recipe) || AGENT_METRIC_PREFIXES.stream().anyMatch(metric::startsWith)) {
            return AGENT;
        }
        if (NODE_EXPORTER_RECIPE.equals(recipe)) {
            return HOST;
        }
        if (HOST_SAMPLER.equals(labels.get(LabelNames.SAMPLER)) && !labels.containsKey(LabelNames.CGROUP)) {
            return HOST;
        }
        if (metric.startsWith("node_")) {
            return HOST; // node_exporter's raw series, kept as they came
        }
        String name = labels.getOrDefault("groupname", labels.getOrDefault(LabelNames.CONTAINER, source));
        return AGENT_NAME.matcher(name).matches() ? AGENT : SUT;
    }
}
