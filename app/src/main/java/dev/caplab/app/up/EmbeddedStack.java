package dev.caplab.app.up;

import dev.caplab.broker.BrokerSettings;
import dev.caplab.broker.EmbeddedKafkaBroker;
import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Every role of the embedded default, started in dependency order and stopped in reverse. */
public final class EmbeddedStack implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedStack.class);

    private final Deque<AutoCloseable> started = new ArrayDeque<>();

    private EmbeddedStack() {
    }

    /** Starts the broker, the store, the processing roles and the web tier; prints where each listens. */
    public static EmbeddedStack start(UpSettings settings, PrintStream out) {
        EmbeddedStack stack = new EmbeddedStack();
        try {
            EmbeddedKafkaBroker broker = stack.track(EmbeddedKafkaBroker.start(
                    new BrokerSettings(settings.dataDir(), settings.host(), settings.kafkaPort())));
            out.println("caplab: Kafka (KRaft, in-process)   " + broker.bootstrapServers());
            out.println("caplab: data directory              " + settings.dataDir());
            out.println("caplab: up; Ctrl-C stops everything");
            return stack;
        } catch (RuntimeException e) {
            stack.close();
            throw e;
        }
    }

    private <T extends AutoCloseable> T track(T role) {
        started.push(role);
        return role;
    }

    /** Stops every started role, newest first; one failing to stop does not keep the others running. */
    @Override
    public void close() {
        while (!started.isEmpty()) {
            AutoCloseable role = started.pop();
            try {
                role.close();
            } catch (Exception e) {
                log.error("failed to stop {}", role.getClass().getSimpleName(), e);
            }
        }
        log.info("caplab stopped");
    }
}
