package dev.caplab.sink.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A JVM on the test's own class path running one main class, its output in a log file, so a test can kill it with
 * SIGKILL ({@code destroyForcibly}): no close, no final commit, exactly what a crashed node leaves behind.
 */
final class ChildJvm {

    /** The exit code of a process killed by SIGKILL (128 + 9). */
    private static final int SIGKILL_EXIT = 137;
    private static final int LOG_TAIL_CHARS = 4000;
    private final String name;
    private final Path log;
    private final Process process;

    private ChildJvm(String name, Path log, Process process) {
        this.name = name;
        this.log = log;
        this.process = process;
    }

    /** Starts {@code main} with {@code args}; its output goes to {@code dir/<name>.log}. */
    static ChildJvm start(Path dir, String name, Class<?> main, List<String> args) throws IOException {
        Path log = dir.resolve(name + ".log");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-cp", System.getProperty("java.class.path"), main.getName()));
        cmd.addAll(args);
        Process process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new ChildJvm(name, log, process);
    }

    String name() {
        return name;
    }

    /** Waits until the child printed {@code line}; fails at once, with its log, if it exits first. */
    void awaitLine(String line, Duration timeout) throws InterruptedException {
        ItEnvironment.await(timeout, () -> {
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited with " + process.exitValue() + ":\n" + logTail());
            }
            return log().contains(line);
        }, () -> "; " + name + " never printed '" + line + "'" + logContext());
    }

    /** SIGKILL, and checks that it was the kill that ended the child, not an exit of its own just before. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as(name + " gone 30 s after SIGKILL").isTrue();
        assertThat(process.exitValue()).as(name + " killed by SIGKILL, not shut down").isEqualTo(SIGKILL_EXIT);
    }

    /** SIGKILL without checks, for cleanup: a child must never outlive its test. */
    void destroy() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    boolean alive() {
        return process.isAlive();
    }

    /** The end of the child's log, to explain a failed wait. */
    String logContext() {
        return "; " + name + (process.isAlive() ? " alive" : " exited " + process.exitValue()) + ", log tail:\n"
                + logTail();
    }

    private String logTail() {
        String text = log();
        return text.substring(Math.max(0, text.length() - LOG_TAIL_CHARS));
    }

    private String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
