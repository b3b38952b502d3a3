package dev.caplab.app.tools;

import dev.caplab.app.remotewrite.DebianTool;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The test resource {@code tools/cpu_server.py} under Debian's Python, pinned to CPU 0 with {@code taskset -c 0}: a
 * CPU-bound HTTP server that can use at most one core whatever the machine has. {@link #pid} is the Python process
 * itself (taskset execs it), the one whose /proc/PID/stat the test reads.
 */
final class PinnedCpuServer implements AutoCloseable {

    /** What process-exporter's config matches on, and so the process group's name in caplab. */
    static final String SCRIPT = "cpu_server.py";

    private final Process process;
    private final int port;

    private PinnedCpuServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts the server; each {@code GET /burn} uses {@code cpuMillis} of CPU. */
    static PinnedCpuServer start(Path dir, int cpuMillis) throws IOException {
        Path python = DebianTool.require("/usr/bin/python3", "python3");
        Path taskset = DebianTool.require("/usr/bin/taskset", "util-linux");
        Path script = dir.resolve(SCRIPT);
        try (InputStream in = PinnedCpuServer.class.getResourceAsStream("/tools/" + SCRIPT)) {
            Files.copy(in, script);
        }
        Process process = new ProcessBuilder(List.of(taskset.toString(), "-c", "0", python.toString(),
                script.toString(), Integer.toString(cpuMillis))).redirectErrorStream(true).start();
        return new PinnedCpuServer(process, ListeningLine.portOf(process, "the CPU server"));
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
