package dev.caplab.app.cli;

import dev.caplab.schema.health.RoleStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Keeps a long-running role alive until the JVM is asked to stop (Ctrl-C, SIGTERM), then closes it cleanly. */
public final class UntilStopped {

    private static final Logger log = LoggerFactory.getLogger(UntilStopped.class);

    private UntilStopped() {
    }

    /**
     * As {@link #await}, but also checks the roles' status every second: when one is down (a role died on its own,
     * e.g. Streams in ERROR or the sink thread stopped), says so loudly on stderr, closes everything and returns 1,
     * so the process exits non-zero instead of serving a dead pipeline. Returns 0 after a normal shutdown. With a
     * {@code healthFile}, writes the statuses there every second ({@code UP ...} or {@code DOWN ...} as its first
     * word), for a container healthcheck of a role that has no HTTP port.
     */
    public static int awaitWhileUp(String role, Supplier<List<RoleStatus>> statuses, Path healthFile,
            AutoCloseable... parts) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicBoolean closed = new AtomicBoolean();
        Runnable closeAll = () -> {
            if (closed.compareAndSet(false, true)) {
                closeAll(role, parts);
            }
        };
        Thread hook = new Thread(() -> {
            closeAll.run();
            System.out.println("caplab: " + role + " stopped");
            stopped.countDown();
        }, "caplab-" + role + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        while (!stopped.await(1, TimeUnit.SECONDS)) {
            List<RoleStatus> now = statuses.get();
            List<RoleStatus> down = now.stream().filter(s -> !s.up()).toList();
            writeHealth(healthFile, now, down.isEmpty());
            if (!down.isEmpty()) {
                for (RoleStatus d : down) {
                    String line = "caplab: " + role + ": THE " + d.role().toUpperCase(java.util.Locale.ROOT)
                            + " ROLE STOPPED (" + d.detail() + "); shutting down with exit code 1";
                    System.err.println(line);
                    log.error(line);
                }
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDownAlready) {
                    // the hook closes everything
                }
                closeAll.run();
                return 1;
            }
        }
        return 0;
    }

    private static void writeHealth(Path file, List<RoleStatus> statuses, boolean up) {
        if (file == null) {
            return;
        }
        StringBuilder text = new StringBuilder(up ? "UP" : "DOWN");
        statuses.forEach(s -> text.append(' ').append(s.role()).append('=').append(s.up() ? "UP" : "DOWN")
                .append(" (").append(s.detail()).append(')'));
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, text.append('\n').toString());
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            log.warn("cannot write the health file {}: {}", file, e.toString());
        }
    }

    private static void closeAll(String role, AutoCloseable... parts) {
        for (AutoCloseable part : List.of(parts)) {
            try {
                part.close();
            } catch (Exception e) {
                log.error("{}: failed to stop {}", role, part.getClass().getSimpleName(), e);
            }
        }
    }

    /** Blocks until shutdown; closes the parts in the order given (the role first, what it stands on last). */
    public static void await(String role, AutoCloseable... parts) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            closeAll(role, parts);
            System.out.println("caplab: " + role + " stopped");
            stopped.countDown();
        }, "caplab-" + role + "-shutdown"));
        stopped.await();
    }
}
