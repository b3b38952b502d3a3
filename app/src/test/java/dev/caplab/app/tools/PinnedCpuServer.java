package dev.caplab.app.tools;

import dev.caplab.app.remotewrite.DebianTool;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
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
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith("listening ")) {
            process.destroyForcibly();
            throw new IllegalStateException("the CPU server did not start: " + line);
        }
        return new PinnedCpuServer(process, Integer.parseInt(line.substring("listening ".length()).strip()));
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
