package dev.caplab.app.web;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * How the HTTP tier is started: listener, Kafka for ingest (and how ingest logs in to it), ClickHouse for the SQL
 * endpoint, tokens.
 */
public record WebSettings(String host, int port, String bootstrapServers, String database, URI clickhouseHttpUrl,
                          String clickhouseUser, String clickhousePassword, List<CliToken> tokens,
                          KafkaClientSecurity kafkaSecurity) {

    public WebSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(clickhouseHttpUrl, "clickhouseHttpUrl");
        clickhouseUser = clickhouseUser == null ? "" : clickhouseUser;
        clickhousePassword = clickhousePassword == null ? "" : clickhousePassword;
        tokens = List.copyOf(tokens);
        Objects.requireNonNull(kafkaSecurity, "kafkaSecurity");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("HTTP port must be 0..65535, was " + port);
        }
    }
}
