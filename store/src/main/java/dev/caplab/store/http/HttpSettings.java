package dev.caplab.store.http;

import java.util.Objects;

/**
 * How the embedded engine is exposed over HTTP, and to whom.
 *
 * <p>Two kinds of caller: caplab itself, with {@code internal} (full access, no limits), and readers. A reader
 * is {@value #READER_USER} with a read token as password ({@code readerTokens} decides), or, when {@code anonymousReaders}, anyone who
 * sends no credentials (or ClickHouse's {@code default} user without a password). Readers get one SELECT-like
 * statement at a time, read-only, on their own engine connection, within {@code readerLimits}.
 *
 * @param host             address to bind; loopback by default so the engine is never reachable from outside
 * @param port             TCP port; 0 picks a free one
 * @param internal         caplab's own credential (sink, migrations, repositories)
 * @param readerTokens     which passwords of {@value #READER_USER} are read tokens
 * @param anonymousReaders whether a request without credentials is served as a reader (no tokens configured)
 * @param readerLimits     what readers may use
 * @param maxBodyBytes     request body limit for caplab's own requests, compressed and inflated
 * @param workerThreads    threads serving caplab's own requests
 * @param queueCapacity    caplab requests waiting for a worker before the acceptor itself does the work
 */
public record HttpSettings(String host, int port, Credential internal, ReaderTokens readerTokens,
                           boolean anonymousReaders, ReaderLimits readerLimits, long maxBodyBytes,
                           int workerThreads, int queueCapacity) {

    /** ClickHouse's HTTP port. */
    public static final int DEFAULT_PORT = 8123;
    /** The user name readers authenticate as, with a read token as password. */
    public static final String READER_USER = "caplab-read";
    /** The user name of caplab's own credential. */
    public static final String INTERNAL_USER = "caplab";

    public HttpSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(internal, "internal");
        Objects.requireNonNull(readerLimits, "readerLimits");
        Objects.requireNonNull(readerTokens, "readerTokens");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be in [0, 65535], was " + port);
        }
        if (READER_USER.equals(internal.user()) || "default".equals(internal.user())) {
            throw new IllegalArgumentException("the internal user must not be named " + internal.user());
        }
        if (workerThreads < 1 || queueCapacity < 1 || maxBodyBytes < 1) {
            throw new IllegalArgumentException("workerThreads, queueCapacity and maxBodyBytes must be >= 1");
        }
    }

    /**
     * 127.0.0.1:8123; a random internal credential; anyone else a reader of database {@code caplab} within
     * {@link ReaderLimits#defaults}; 256 MiB bodies for caplab's own requests.
     */
    public static HttpSettings defaults() {
        return new HttpSettings("127.0.0.1", DEFAULT_PORT, Credential.random(INTERNAL_USER), ReaderTokens.NONE, true,
                ReaderLimits.defaults("caplab"), 256L << 20, 4, 64);
    }

    /** Same settings on another address. */
    public HttpSettings withHost(String newHost) {
        return new HttpSettings(newHost, port, internal, readerTokens, anonymousReaders, readerLimits,
                maxBodyBytes, workerThreads, queueCapacity);
    }

    /** Same settings on another port (0 = ephemeral). */
    public HttpSettings withPort(int newPort) {
        return new HttpSettings(host, newPort, internal, readerTokens, anonymousReaders, readerLimits,
                maxBodyBytes, workerThreads, queueCapacity);
    }

    /** Same settings with another internal credential. */
    public HttpSettings withInternal(Credential newInternal) {
        return new HttpSettings(host, port, newInternal, readerTokens, anonymousReaders, readerLimits,
                maxBodyBytes, workerThreads, queueCapacity);
    }

    /**
     * Readers must authenticate as {@value #READER_USER} with a password {@code tokens} grants read, or be served as
     * readers without credentials when {@code anonymous}.
     */
    public HttpSettings withReaders(ReaderTokens tokens, boolean anonymous) {
        return new HttpSettings(host, port, internal, tokens, anonymous, readerLimits, maxBodyBytes,
                workerThreads, queueCapacity);
    }

    /** Same settings with other reader limits. */
    public HttpSettings withReaderLimits(ReaderLimits newLimits) {
        return new HttpSettings(host, port, internal, readerTokens, anonymousReaders, newLimits, maxBodyBytes,
                workerThreads, queueCapacity);
    }

    /** Same settings with another body limit for caplab's own requests. */
    public HttpSettings withMaxBodyBytes(long bytes) {
        return new HttpSettings(host, port, internal, readerTokens, anonymousReaders, readerLimits, bytes,
                workerThreads, queueCapacity);
    }
}
