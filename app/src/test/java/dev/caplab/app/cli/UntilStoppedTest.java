package dev.caplab.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.health.RoleStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A role that stops on its own ends the process with exit code 1, its parts closed, its health file DOWN. */
class UntilStoppedTest {

    @TempDir
    Path dir;

    @Test
    void aRoleThatStopsOnItsOwnEndsTheWaitWithExitCode1() throws Exception {
        AtomicInteger checks = new AtomicInteger();
        AtomicBoolean closed = new AtomicBoolean();
        Path health = dir.resolve("health");
        int code = UntilStopped.awaitWhileUp("sink", () -> List.of(new RoleStatus("sink", checks.incrementAndGet() < 3,
                "stopped: IllegalArgumentException")), health, () -> closed.set(true));
        assertThat(code).isEqualTo(1);
        assertThat(closed).isTrue();
        assertThat(Files.readString(health)).startsWith("DOWN sink=DOWN (stopped: IllegalArgumentException)");
    }
}
