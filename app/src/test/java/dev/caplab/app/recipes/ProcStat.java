package dev.caplab.app.recipes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** The machine's busy cores read straight from /proc/stat, independently of node_exporter and of the recipes. */
public final class ProcStat {

    /** USER_HZ: /proc/stat counts in 1/100 s on Linux whatever the kernel's HZ. */
    public static final double TICKS_PER_SECOND = 100;

    private ProcStat() {
    }

    static double busyCoresOver(Duration window) throws IOException, InterruptedException {
        long before = busyTicks();
        long start = System.nanoTime();
        Thread.sleep(window.toMillis());
        long after = busyTicks();
        double seconds = (System.nanoTime() - start) / 1e9;
        return (after - before) / TICKS_PER_SECOND / seconds;
    }

    /** user + nice + system + irq + softirq + steal of the "cpu" line. */
    public static long busyTicks() throws IOException {
        String[] f = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
        return Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6])
                + Long.parseLong(f[7]) + Long.parseLong(f[8]);
    }
}
