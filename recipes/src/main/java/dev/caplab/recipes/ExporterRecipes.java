package dev.caplab.recipes;

import dev.caplab.schema.vocabulary.CpuModes;
import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.schema.event.SampleKind;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The recipes, in one place and meant to be read like data: which exporter series become which of caplab's resource
 * series ({@code cpu.cores}, {@code mem.bytes}, {@code net.tx.bytes}, {@code net.rx.bytes}), under which source and
 * labels. recipes/README.md has the same table in prose. Raw series are always kept as they came;
 * these are added beside them.
 *
 * <p>Sums are left to streams, which adds the rates of every series of one source and metric: a derived counter per
 * raw series (one CPU in one mode, one interface) is enough and stays right when a scrape arrives cut into several
 * requests (Prometheus remote write shards series across requests).
 */
public final class ExporterRecipes {

    public static final String NODE_EXPORTER = "node_exporter";
    public static final String PROCESS = "process";
    public static final String PROCESS_EXPORTER = "process-exporter";
    public static final String CADVISOR = "cadvisor";

    /** Suffix of the network metrics of virtual devices, beside streams' {@code .loopback}. */
    public static final String VIRTUAL_SUFFIX = ".virtual";

    /**
     * Devices whose traffic is also counted on a physical interface or never leaves the host (bridges, veth pairs,
     * tunnels, bonds over their slaves, VLAN sub-interfaces {@code eth0.100}): summed with the physical ones they
     * would count traffic twice. {@code lo} is not here: streams already reports it apart as
     * {@code net.*.loopback}.
     */
    public static final Pattern VIRTUAL_DEVICE = Pattern.compile(
            "(docker|veth|br|virbr|vnet|cni|flannel|cali|vxlan|cilium|kube-|weave|lxc|lxdbr|podman|tun|tap|wg"
                    + "|bond|team|dummy|ifb).*|.*[.@].*");

    private static final Pattern ANY = Pattern.compile(".+");
    private static final Pattern NOT_BUSY = Pattern.compile(String.join("|", CpuModes.NOT_BUSY));
    /** Kubernetes' pod sandbox: its cgroup holds every container of the pod, or none of their work. */
    private static final Pattern POD_LEVEL = Pattern.compile("|POD");

    /** One raw series → one derived series. */
    public static final List<SeriesRecipe> SERIES = java.util.stream.Stream.of(
            // node_exporter: CPU cores in use = the rate of every mode but idle and iowait (guest time is already
            // inside user and nice on Linux and has its own metric, node_cpu_guest_seconds_total, not used here)
            List.of(series(NODE_EXPORTER, "node_cpu_seconds_total", Map.of(), Map.of("mode", NOT_BUSY),
                    MetricNames.CPU_CORES, SampleKind.COUNTER, "{source}", LabelNames.CPU, "{cpu}", "mode", "{mode}")),
            network(NODE_EXPORTER, "node_network_transmit_bytes_total", MetricNames.NET_TX_BYTES),
            network(NODE_EXPORTER, "node_network_receive_bytes_total", MetricNames.NET_RX_BYTES),

            // the process serving the scraped /metrics (client libraries' standard process metrics)
            List.of(series(PROCESS, "process_cpu_seconds_total", Map.of(), Map.of(), MetricNames.CPU_CORES,
                            SampleKind.COUNTER, "{source}/process"),
                    series(PROCESS, "process_resident_memory_bytes", Map.of(), Map.of(), MetricNames.MEM_BYTES,
                            SampleKind.GAUGE, "{source}/process")),

            // process-exporter: each name group is a source of its own (user and system modes both count)
            List.of(series(PROCESS_EXPORTER, "namedprocess_namegroup_cpu_seconds_total", Map.of("groupname", ANY),
                            Map.of(), MetricNames.CPU_CORES, SampleKind.COUNTER, "{groupname}", "groupname",
                            "{groupname}", "mode", "{mode}", LabelNames.HOST, "{source}"),
                    series(PROCESS_EXPORTER, "namedprocess_namegroup_memory_bytes",
                            Map.of("groupname", ANY, "memtype", Pattern.compile("resident")), Map.of(),
                            MetricNames.MEM_BYTES, SampleKind.GAUGE, "{groupname}", "groupname", "{groupname}",
                            LabelNames.HOST, "{source}")),

            // cAdvisor, Docker: a container (label name) is a source, as with docker stats; cgroups without a
            // name ("/", system.slice) hold the containers' work too and are left out. CPU comes either as one
            // cpu="total" series or, with --enable_metrics=percpu, as cpu00, cpu01, … instead, never both: all count
            List.of(cadvisorDocker("container_cpu_usage_seconds_total", MetricNames.CPU_CORES, SampleKind.COUNTER),
                    cadvisorDocker("container_memory_working_set_bytes", MetricNames.MEM_BYTES, SampleKind.GAUGE),
                    cadvisorDocker("container_network_transmit_bytes_total", MetricNames.NET_TX_BYTES,
                            SampleKind.COUNTER),
                    cadvisorDocker("container_network_receive_bytes_total", MetricNames.NET_RX_BYTES,
                            SampleKind.COUNTER),
                    // cAdvisor in Kubernetes (labels pod, container): a container is {pod}/{container}; the network
                    // belongs to the pod's sandbox, so the pod's series (container "" or POD) carry it
                    cadvisorKubernetes("container_cpu_usage_seconds_total", MetricNames.CPU_CORES,
                            SampleKind.COUNTER),
                    cadvisorKubernetes("container_memory_working_set_bytes", MetricNames.MEM_BYTES, SampleKind.GAUGE),
                    cadvisorPodNetwork("container_network_transmit_bytes_total", MetricNames.NET_TX_BYTES),
                    cadvisorPodNetwork("container_network_receive_bytes_total", MetricNames.NET_RX_BYTES)))
            .flatMap(List::stream).toList();

    /** Two raw gauges → their difference. */
    public static final List<DifferenceRecipe> DIFFERENCES = List.of(
            // memory in use as node_exporter's users read it (MemAvailable needs Linux 3.14+)
            new DifferenceRecipe(NODE_EXPORTER, "node_memory_MemTotal_bytes", "node_memory_MemAvailable_bytes",
                    MetricNames.MEM_BYTES, Template.of("{source}"), Map.of(LabelNames.ROLE, Template.of("{role}")),
                    Duration.ofSeconds(1)));

    private ExporterRecipes() {
    }

    /** A device's bytes: physical ones (and lo, which streams sets apart) as {@code metric}, virtual ones apart. */
    private static List<SeriesRecipe> network(String recipe, String raw, String metric) {
        return List.of(
                series(recipe, raw, Map.of(), Map.of("device", VIRTUAL_DEVICE), metric, SampleKind.COUNTER,
                        "{source}", LabelNames.INTERFACE, "{device}"),
                series(recipe, raw, Map.of("device", VIRTUAL_DEVICE), Map.of(), metric + VIRTUAL_SUFFIX,
                        SampleKind.COUNTER, "{source}", LabelNames.INTERFACE, "{device}"));
    }

    private static SeriesRecipe cadvisorDocker(String raw, String metric, SampleKind kind) {
        return series(CADVISOR, raw, Map.of("name", ANY), Map.of("container", ANY), metric, kind,
                "{name}", LabelNames.CONTAINER, "{name}", LabelNames.CPU, "{cpu}", LabelNames.INTERFACE, "{interface}", LabelNames.HOST, "{source}");
    }

    private static SeriesRecipe cadvisorKubernetes(String raw, String metric, SampleKind kind) {
        return series(CADVISOR, raw, Map.of("container", ANY, "pod", ANY),
                Map.of("container", POD_LEVEL), metric, kind, "{pod}/{container}", LabelNames.CONTAINER, "{container}",
                LabelNames.CPU, "{cpu}", "pod", "{pod}", "namespace", "{namespace}", LabelNames.HOST, "{source}");
    }

    private static SeriesRecipe cadvisorPodNetwork(String raw, String metric) {
        return series(CADVISOR, raw, Map.of("pod", ANY, "container", POD_LEVEL), Map.of(), metric,
                SampleKind.COUNTER, "{pod}", "pod", "{pod}", "namespace", "{namespace}", LabelNames.INTERFACE,
                "{interface}", LabelNames.HOST, "{source}");
    }

    private static SeriesRecipe series(String recipe, String raw, Map<String, Pattern> when,
            Map<String, Pattern> unless, String metric, SampleKind kind, String source, String... labelPairs) {
        Map<String, Template> labels = new LinkedHashMap<>();
        for (int i = 0; i < labelPairs.length; i += 2) {
            labels.put(labelPairs[i], Template.of(labelPairs[i + 1]));
        }
        // a role set on the raw series (relabelled in Prometheus) overrides the inferred one on the derived series too
        labels.put(LabelNames.ROLE, Template.of("{role}"));
        return new SeriesRecipe(recipe, raw, when, unless, metric, kind, Template.of(source), labels);
    }
}
