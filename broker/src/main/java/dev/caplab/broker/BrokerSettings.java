package dev.caplab.broker;

import java.nio.file.Path;
import java.util.Objects;

/** Where the embedded broker keeps its log and which loopback port clients reach it on (0 picks a free one). */
public record BrokerSettings(Path dataDir, String host, int port) {

    public static final int DEFAULT_PORT = 9092;

    public BrokerSettings {
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("Kafka port must be 0..65535, was " + port);
        }
    }

    /** Loopback on the default port. */
    public static BrokerSettings loopback(Path dataDir, int port) {
        return new BrokerSettings(dataDir, "127.0.0.1", port);
    }
}
