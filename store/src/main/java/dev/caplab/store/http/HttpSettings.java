package dev.caplab.store.http;

import java.util.Objects;
import java.util.Optional;

/**
 * How the embedded engine is exposed over HTTP.
 *
 * @param host          address to bind; loopback by default so the engine is never reachable from outside
 * @param port          TCP port; 0 picks a free one
 * @param user          user required from clients, empty for none
 * @param password      password required with {@code user}
 * @param workerThreads threads parsing requests and writing responses (engine calls are serialized anyway)
 * @param queueCapacity requests waiting for a worker before the acceptor itself does the work (backpressure)
 */
public record HttpSettings(String host, int port, Optional<String> user, Optional<String> password,
                           int workerThreads, int queueCapacity) {

    /** ClickHouse's HTTP port. */
    public static final int DEFAULT_PORT = 8123;

    public HttpSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be in [0, 65535], was " + port);
        }
        if (password.isPresent() && user.isEmpty()) {
            throw new IllegalArgumentException("a password needs a user");
        }
        if (workerThreads < 1 || queueCapacity < 1) {
            throw new IllegalArgumentException("workerThreads and queueCapacity must be >= 1");
        }
    }

    /** 127.0.0.1:8123, no credentials. */
    public static HttpSettings defaults() {
        return new HttpSettings("127.0.0.1", DEFAULT_PORT, Optional.empty(), Optional.empty(), 4, 64);
    }

    /** Same settings on another port (0 = ephemeral). */
    public HttpSettings withPort(int newPort) {
        return new HttpSettings(host, newPort, user, password, workerThreads, queueCapacity);
    }

    /** Same settings requiring these credentials. */
    public HttpSettings withCredentials(String newUser, String newPassword) {
        return new HttpSettings(host, port, Optional.of(newUser), Optional.ofNullable(newPassword),
                workerThreads, queueCapacity);
    }
}
