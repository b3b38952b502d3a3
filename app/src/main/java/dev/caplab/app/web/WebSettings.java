package dev.caplab.app.web;

import dev.caplab.access.ApiToken;
import dev.caplab.access.Scope;
import dev.caplab.app.cli.AccessOptions;
import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.query.live.LiveProperties;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * How the HTTP tier is started: listener, Kafka for ingest (and how ingest logs in to it), ClickHouse for the SQL
 * endpoint, tokens, the browser origins besides its own page allowed to make state-changing calls, and after how long
 * without input the streams app ends a run its samples started (the live run page says when a run will end).
 */
public record WebSettings(String host, int port, String bootstrapServers, String database, URI clickhouseHttpUrl,
                          String clickhouseUser, String clickhousePassword, List<ApiToken> tokens,
                          List<String> allowedOrigins, KafkaClientSecurity kafkaSecurity, Duration runIdleEnd) {

    /** Settings for a streams app with the default idle end ({@link LiveProperties#DEFAULT_RUN_IDLE_END}). */
    public WebSettings(String host, int port, String bootstrapServers, String database, URI clickhouseHttpUrl,
                       String clickhouseUser, String clickhousePassword, List<ApiToken> tokens,
                       List<String> allowedOrigins, KafkaClientSecurity kafkaSecurity) {
        this(host, port, bootstrapServers, database, clickhouseHttpUrl, clickhouseUser, clickhousePassword, tokens,
                allowedOrigins, kafkaSecurity, LiveProperties.DEFAULT_RUN_IDLE_END);
    }

    public WebSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(clickhouseHttpUrl, "clickhouseHttpUrl");
        clickhouseUser = clickhouseUser == null ? "" : clickhouseUser;
        clickhousePassword = clickhousePassword == null ? "" : clickhousePassword;
        tokens = List.copyOf(tokens);
        allowedOrigins = List.copyOf(allowedOrigins);
        Objects.requireNonNull(kafkaSecurity, "kafkaSecurity");
        Objects.requireNonNull(runIdleEnd, "runIdleEnd");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("HTTP port must be 0..65535, was " + port);
        }
    }

    /** What requests without a token may do on this port: everything when no token is configured. */
    public Set<Scope> anonymousScopes() {
        return AccessOptions.anonymousScopes(tokens);
    }
}
