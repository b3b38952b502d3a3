package dev.caplab.app.tools;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A {@link PooledServer} in its own JVM: the port it bound and the CPU time the process has used so far. */
final class SutProcess implements AutoCloseable {

    private final Process process;
    private final int port;

    private SutProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts the server with {@code workers} threads, each request {@code cpuMillis} of CPU in {@code serviceMillis}. */
    static SutProcess start(int workers, int cpuMillis, int serviceMillis) throws IOException {
        Path classes;
        try {
            classes = Path.of(PooledServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the test classes", e);
        }
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        // a small heap and C1 only: the SUT's own JVM overhead stays far below the CPU its requests burn
        Process process = new ProcessBuilder(List.of(java.toString(), "-Xmx64m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-cp", classes.toString(), PooledServer.class.getName(),
                Integer.toString(workers), Integer.toString(cpuMillis), Integer.toString(serviceMillis)))
                .redirectErrorStream(true).start();
        return new SutProcess(process, ListeningLine.portOf(process, "SUT"));
    }

    int port() {
        return port;
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** CPU time (user + system) of the whole SUT process since it started, as the kernel accounts it. */
    Duration cpuTime() {
        return process.toHandle().info().totalCpuDuration()
                .orElseThrow(() -> new IllegalStateException("no CPU time for SUT pid " + process.pid()));
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
