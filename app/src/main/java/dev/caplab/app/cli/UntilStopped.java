package dev.caplab.app.cli;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Keeps a long-running role alive until the JVM is asked to stop (Ctrl-C, SIGTERM), then closes it cleanly. */
public final class UntilStopped {

    private static final Logger log = LoggerFactory.getLogger(UntilStopped.class);

    private UntilStopped() {
    }

    /** Blocks until shutdown; closes the parts in the order given (the role first, what it stands on last). */
    public static void await(String role, AutoCloseable... parts) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (AutoCloseable part : List.of(parts)) {
                try {
                    part.close();
                } catch (Exception e) {
                    log.error("{}: failed to stop {}", role, part.getClass().getSimpleName(), e);
                }
            }
            System.out.println("caplab: " + role + " stopped");
            stopped.countDown();
        }, "caplab-" + role + "-shutdown"));
        stopped.await();
    }
}
