package dev.caplab.broker;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where the embedded broker keeps its log, which address and port clients reach it on (0 picks a free one), whether
 * they must authenticate, and whether the client listener speaks TLS ({@code tls}: SASL_SSL with the broker's
 * self-signed certificate, {@link BrokerTls}). By default TLS is on exactly when SASL is required and the address is
 * not loopback: passwords never cross a network in clear.
 */
public record BrokerSettings(Path dataDir, String host, int port, BrokerAuth auth, boolean tls) {

    public static final int DEFAULT_PORT = 9092;

    public BrokerSettings {
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(auth, "auth");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("Kafka port must be 0..65535, was " + port);
        }
        if (tls && !auth.saslRequired()) {
            throw new IllegalArgumentException("Kafka TLS without SASL: caplab's listener speaks SASL_SSL only");
        }
    }

    /** TLS when SASL is required beyond loopback. */
    public BrokerSettings(Path dataDir, String host, int port, BrokerAuth auth) {
        this(dataDir, host, port, auth, auth.saslRequired() && !isLoopback(host));
    }

    /** Open (PLAINTEXT) on this address. */
    public BrokerSettings(Path dataDir, String host, int port) {
        this(dataDir, host, port, BrokerAuth.OPEN);
    }

    /** Loopback, open (PLAINTEXT). */
    public static BrokerSettings loopback(Path dataDir, int port) {
        return new BrokerSettings(dataDir, "127.0.0.1", port);
    }

    /** These users and their ACLs, TLS by the default rule for this address. */
    public BrokerSettings withAuth(BrokerAuth a) {
        return new BrokerSettings(dataDir, host, port, a);
    }

    /** TLS on or off whatever the address (a test of SASL_SSL on loopback). */
    public BrokerSettings withTls(boolean on) {
        return new BrokerSettings(dataDir, host, port, auth, on);
    }

    /** Where the broker's certificate and key live ({@link BrokerTls}). */
    public Path tlsDir() {
        return dataDir.resolve("kafka-tls");
    }

    /**
     * The address clients are told to connect to (and the TLS certificate names): {@code host}, or this machine's
     * name when {@code host} is a wildcard ({@code 0.0.0.0}, {@code ::}), which Kafka refuses to advertise.
     */
    public String advertisedHost() {
        try {
            return InetAddress.getByName(host).isAnyLocalAddress() ? InetAddress.getLocalHost().getHostName() : host;
        } catch (UnknownHostException e) {
            throw new IllegalStateException("cannot resolve the Kafka listener address " + host
                    + " or this machine's name to advertise to clients", e);
        }
    }

    /** Whether {@code host} is a loopback address (127.0.0.0/8, ::1, or a name resolving to one). */
    public static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
