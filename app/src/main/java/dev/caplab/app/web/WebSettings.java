package dev.caplab.app.web;

import dev.caplab.access.ApiToken;
import dev.caplab.access.Scope;
import dev.caplab.app.cli.AccessOptions;
import dev.caplab.schema.kafka.KafkaClientSecurity;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * How the HTTP tier is started: listener, Kafka for ingest (and how ingest logs in to it), ClickHouse for the SQL
 * endpoint, tokens, and the browser origins besides its own page allowed to make state-changing calls.
 */
public record WebSettings(String host, int port, String bootstrapServers, String database, URI clickhouseHttpUrl,
                          String clickhouseUser, String clickhousePassword, List<ApiToken> tokens,
                          List<String> allowedOrigins, KafkaClientSecurity kafkaSecurity) {

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
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("HTTP port must be 0..65535, was " + port);
        }
    }

    /** What requests without a token may do on this port: everything when no token is configured. */
    public Set<Scope> anonymousScopes() {
        return AccessOptions.anonymousScopes(tokens);
    }
}
