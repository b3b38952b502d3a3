package dev.caplab.sampler;

import dev.caplab.schema.vocabulary.CpuModes;

/**
 * One {@code cpu} line of /proc/stat in clock ticks: busy is every mode but {@link CpuModes#NOT_BUSY} (guest time is
 * already inside user and nice, so it is not added again).
 */
public record CpuTimes(long busyTicks, long totalTicks) {

    public CpuTimes {
        if (busyTicks < 0 || totalTicks < busyTicks) {
            throw new IllegalArgumentException("need 0 <= busy <= total ticks, was " + busyTicks + "/" + totalTicks);
        }
    }

    /** Cores in use between two readings: busy seconds over elapsed seconds (1.0 = one core fully busy). */
    public double coresSince(CpuTimes earlier, double elapsedSeconds, long ticksPerSecond) {
        return Math.max(0, busyTicks - earlier.busyTicks) / (double) ticksPerSecond / elapsedSeconds;
    }

    /** Share of the capacity these counters cover that was busy between two readings, 0–100. */
    public double utilPercentSince(CpuTimes earlier) {
        long total = totalTicks - earlier.totalTicks;
        return total <= 0 ? 0 : 100.0 * Math.max(0, busyTicks - earlier.busyTicks) / total;
    }
}
