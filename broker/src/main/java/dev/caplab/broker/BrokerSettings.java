package dev.caplab.broker;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where the embedded broker keeps its log, which address and port clients reach it on (0 picks a free one), and
 * whether they must authenticate.
 */
public record BrokerSettings(Path dataDir, String host, int port, BrokerAuth auth) {

    public static final int DEFAULT_PORT = 9092;

    public BrokerSettings {
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(auth, "auth");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("Kafka port must be 0..65535, was " + port);
        }
    }

    /** Open (PLAINTEXT) on this address. */
    public BrokerSettings(Path dataDir, String host, int port) {
        this(dataDir, host, port, BrokerAuth.OPEN);
    }

    /** Loopback, open (PLAINTEXT). */
    public static BrokerSettings loopback(Path dataDir, int port) {
        return new BrokerSettings(dataDir, "127.0.0.1", port);
    }

    public BrokerSettings withAuth(BrokerAuth a) {
        return new BrokerSettings(dataDir, host, port, a);
    }
}
