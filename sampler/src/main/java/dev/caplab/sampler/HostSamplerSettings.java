package dev.caplab.sampler;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Where the host sampler reads: the proc root, the cgroup v2 root and the cgroups to follow (paths under that
 * root, e.g. {@code system.slice/docker-3f2a.scope}), the host name used as source, and the kernel's clock ticks
 * per second ({@code getconf CLK_TCK}, 100 on every mainstream Linux build).
 */
public record HostSamplerSettings(Path procRoot, Path cgroupRoot, List<String> cgroups, String host,
        long ticksPerSecond) {

    public static final long USER_HZ = 100;

    public HostSamplerSettings {
        Objects.requireNonNull(procRoot, "procRoot");
        Objects.requireNonNull(cgroupRoot, "cgroupRoot");
        Objects.requireNonNull(host, "host");
        cgroups = List.copyOf(cgroups);
        if (ticksPerSecond <= 0) {
            throw new IllegalArgumentException("ticksPerSecond must be positive, was " + ticksPerSecond);
        }
    }

    /** This machine: /proc, and /sys/fs/cgroup (or its {@code unified} v2 mount on hybrid v1/v2 systems). */
    public static HostSamplerSettings local(List<String> cgroups, String host) {
        Path root = Path.of("/sys/fs/cgroup");
        Path unified = root.resolve("unified");
        boolean hybrid = !Files.exists(root.resolve("cgroup.controllers")) && Files.isDirectory(unified);
        return new HostSamplerSettings(Path.of("/proc"), hybrid ? unified : root, cgroups, host, USER_HZ);
    }
}
