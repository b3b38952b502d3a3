package dev.caplab.sampler;

import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.ingest.adapter.ResultBuilder;
import dev.caplab.schema.sample.Samples;
import dev.caplab.ingest.parse.ParseResult;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Samples one Linux host: CPU from /proc/stat (machine and per core; rates need two readings, so the first sample
 * has none), memory from /proc/meminfo, per-interface counters from /proc/net/dev, and CPU and memory of each
 * cgroup v2 group asked for. It also reports its own cost per sample, so a step can be checked for the sampler
 * itself eating the CPU it measures. Not thread-safe: one caller, at an interval.
 */
public final class HostSampler {

    public static final String ADAPTER = "host-sampler";
    /**
     * The label on every series this sampler measures: with {@link LabelNames#CGROUP} it is a cgroup of the system
     * under test, without it the host (the source-role rule, analysis {@code SourceRole}); its own cost series are
     * the agent's.
     */
    public static final String SAMPLER_LABEL = LabelNames.SAMPLER;
    private static final Map<String, String> HOST_LABELS = Map.of(SAMPLER_LABEL, ADAPTER);

    private final HostSamplerSettings settings;
    private final Clock clock;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final Set<String> reportedMissing = new HashSet<>();
    private final Map<String, Long> previousCgroupMicros = new HashMap<>();
    private Map<String, CpuTimes> previousCpu;
    private Instant previousAt;
    private long previousProcessCpuNanos = -1;

    public HostSampler(HostSamplerSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    public ParseResult sampleOnce() {
        long threadCpuBefore = threads.getCurrentThreadCpuTime();
        long wallBefore = System.nanoTime();
        Instant at = clock.instant();
        ResultBuilder out = new ResultBuilder();
        double elapsed = previousAt == null ? 0 : Duration.between(previousAt, at).toNanos() / 1e9;
        cpu(at, elapsed, out);
        memory(at, out);
        network(at, out);
        for (String cgroup : settings.cgroups()) {
            cgroup(cgroup, at, elapsed, out);
        }
        overhead(at, elapsed, threadCpuBefore, wallBefore, out);
        previousAt = at;
        return out.build();
    }

    private void cpu(Instant at, double elapsed, ResultBuilder out) {
        Path file = settings.procRoot().resolve("stat");
        read(file, out).ifPresent(text -> {
            Map<String, CpuTimes> now = ProcFiles.stat(text, file.toString(), out);
            if (previousCpu != null && elapsed > 0) {
                now.forEach((cpu, times) -> {
                    CpuTimes before = previousCpu.get(cpu);
                    if (before == null) {
                        return;
                    }
                    double cores = times.coresSince(before, elapsed, settings.ticksPerSecond());
                    double util = times.utilPercentSince(before);
                    if (cpu.equals("cpu")) {
                        out.sample(Samples.gauge(at, settings.host(), MetricNames.CPU_CORES, cores, HOST_LABELS));
                        out.sample(Samples.gauge(at, settings.host(), MetricNames.CPU_UTIL_PERCENT, util,
                                HOST_LABELS));
                    } else {
                        Map<String, String> core = Map.of(LabelNames.CPU, cpu.substring(3), SAMPLER_LABEL, ADAPTER);
                        out.sample(Samples.gauge(at, settings.host(), MetricNames.CPU_CORE_CORES, cores, core));
                        out.sample(Samples.gauge(at, settings.host(), MetricNames.CPU_CORE_UTIL_PERCENT, util, core));
                    }
                });
            }
            previousCpu = now;
        });
    }

    private void memory(Instant at, ResultBuilder out) {
        Path file = settings.procRoot().resolve("meminfo");
        read(file, out).ifPresent(text -> {
            Map<String, Long> mem = ProcFiles.meminfo(text, file.toString(), out);
            String host = settings.host();
            Long total = mem.get("MemTotal");
            Long available = mem.get("MemAvailable");
            if (total != null && available != null) {
                out.sample(Samples.gauge(at, host, MetricNames.MEM_BYTES, total - available, HOST_LABELS));
            }
            gauge(out, at, MetricNames.MEM_LIMIT_BYTES, total);
            gauge(out, at, MetricNames.MEM_AVAILABLE_BYTES, available);
            gauge(out, at, MetricNames.MEM_FREE_BYTES, mem.get("MemFree"));
            gauge(out, at, MetricNames.MEM_CACHED_BYTES, mem.get("Cached"));
            gauge(out, at, MetricNames.MEM_BUFFERS_BYTES, mem.get("Buffers"));
            if (mem.containsKey("SwapTotal") && mem.containsKey("SwapFree")) {
                gauge(out, at, MetricNames.SWAP_USED_BYTES, mem.get("SwapTotal") - mem.get("SwapFree"));
            }
        });
    }

    private void gauge(ResultBuilder out, Instant at, String metric, Long value) {
        if (value != null) {
            out.sample(Samples.gauge(at, settings.host(), metric, value, HOST_LABELS));
        }
    }

    private void network(Instant at, ResultBuilder out) {
        Path file = settings.procRoot().resolve("net").resolve("dev");
        read(file, out).ifPresent(text -> {
            for (InterfaceCounters nic : ProcFiles.netDev(text, file.toString(), out)) {
                Map<String, String> labels = Map.of(LabelNames.INTERFACE, nic.name(), SAMPLER_LABEL, ADAPTER);
                String host = settings.host();
                out.sample(Samples.counter(at, host, MetricNames.NET_RX_BYTES, nic.rxBytes(), labels));
                out.sample(Samples.counter(at, host, MetricNames.NET_TX_BYTES, nic.txBytes(), labels));
                out.sample(Samples.counter(at, host, MetricNames.NET_RX_PACKETS, nic.rxPackets(), labels));
                out.sample(Samples.counter(at, host, MetricNames.NET_TX_PACKETS, nic.txPackets(), labels));
                out.sample(Samples.counter(at, host, MetricNames.NET_RX_ERRORS_COUNT, nic.rxErrors(), labels));
                out.sample(Samples.counter(at, host, MetricNames.NET_TX_ERRORS_COUNT, nic.txErrors(), labels));
                out.sample(Samples.counter(at, host, MetricNames.NET_RX_DROPPED_PACKETS, nic.rxDropped(), labels));
                out.sample(Samples.counter(at, host, MetricNames.NET_TX_DROPPED_PACKETS, nic.txDropped(), labels));
            }
        });
    }

    /** A cgroup is its own source (as a container is), labelled with its path and the host. */
    private void cgroup(String cgroup, Instant at, double elapsed, ResultBuilder out) {
        Path dir = settings.cgroupRoot().resolve(cgroup.startsWith("/") ? cgroup.substring(1) : cgroup);
        String source = cgroup.startsWith("/") ? cgroup : "/" + cgroup;
        Map<String, String> labels = Map.of(LabelNames.CGROUP, source, LabelNames.HOST, settings.host(),
                SAMPLER_LABEL, ADAPTER);
        try {
            readOnce(dir.resolve("cpu.stat"), out).ifPresent(text -> {
                long micros = ProcFiles.cpuUsageMicros(text, dir.resolve("cpu.stat").toString());
                out.sample(Samples.counter(at, source, MetricNames.CPU_USAGE_SECONDS, micros / 1e6, labels));
                Long before = previousCgroupMicros.put(cgroup, micros);
                if (before != null && elapsed > 0) {
                    out.sample(Samples.gauge(at, source, MetricNames.CPU_CORES,
                            Math.max(0, micros - before) / 1e6 / elapsed, labels));
                }
            });
            readOnce(dir.resolve("memory.current"), out).ifPresent(text -> ProcFiles
                    .singleValue(text, dir.resolve("memory.current").toString())
                    .ifPresent(v -> out.sample(Samples.gauge(at, source, MetricNames.MEM_BYTES, v, labels))));
            readOnce(dir.resolve("memory.max"), out).ifPresent(text -> {
                OptionalLong limit = ProcFiles.singleValue(text, dir.resolve("memory.max").toString());
                limit.ifPresent(v -> out.sample(Samples.gauge(at, source, MetricNames.MEM_LIMIT_BYTES, v, labels)));
            });
        } catch (ProcFileException e) {
            out.error(0, e.field(), e.getMessage(), "");
        }
    }

    private void overhead(Instant at, double elapsed, long threadCpuBefore, long wallBefore, ResultBuilder out) {
        String host = settings.host();
        Map<String, String> labels = HOST_LABELS;
        if (threadCpuBefore >= 0) {
            double cpuMillis = (threads.getCurrentThreadCpuTime() - threadCpuBefore) / 1e6;
            out.sample(Samples.gauge(at, host, MetricNames.SAMPLER_CPU_MS, cpuMillis, labels));
        }
        out.sample(Samples.gauge(at, host, MetricNames.SAMPLER_DURATION_MS, (System.nanoTime() - wallBefore) / 1e6,
                labels));
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            long processCpu = os.getProcessCpuTime();
            if (previousProcessCpuNanos >= 0 && elapsed > 0 && processCpu >= 0) {
                // the whole JVM, not just this thread: what the sampling process costs the host it measures
                out.sample(Samples.gauge(at, host, MetricNames.SAMPLER_PROCESS_CPU_CORES,
                        (processCpu - previousProcessCpuNanos) / 1e9 / elapsed, labels));
            }
            previousProcessCpuNanos = processCpu;
        }
    }

    private static Optional<String> read(Path file, ResultBuilder out) {
        try {
            return Optional.of(Files.readString(file));
        } catch (IOException e) {
            out.error(0, file.toString(), "cannot read: " + e, "");
            return Optional.empty();
        }
    }

    /** A cgroup file that is missing (controller not enabled there) is reported once, not on every sample. */
    private Optional<String> readOnce(Path file, ResultBuilder out) {
        if (!Files.exists(file)) {
            if (reportedMissing.add(file.toString())) {
                out.error(0, file.toString(), "missing (is the controller enabled for this cgroup?)", "");
            }
            return Optional.empty();
        }
        return read(file, out);
    }
}
