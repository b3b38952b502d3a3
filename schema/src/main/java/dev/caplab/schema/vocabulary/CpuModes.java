package dev.caplab.schema.vocabulary;

import java.util.Set;

/**
 * Which CPU modes count as work, the one place caplab decides it, for the host sampler (/proc/stat) and node_exporter's
 * recipe ({@code node_cpu_seconds_total{mode}}) alike.
 */
public final class CpuModes {

    /**
     * The CPU modes that are not work: idle, and iowait (an idle CPU with I/O pending). Every other mode of
     * /proc/stat (user, nice, system, irq, softirq, steal) is busy.
     */
    public static final Set<String> NOT_BUSY = Set.of("idle", "iowait");

    private CpuModes() {
    }
}
