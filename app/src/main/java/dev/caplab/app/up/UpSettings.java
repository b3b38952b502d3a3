package dev.caplab.app.up;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/** What {@code caplab up} was asked for: data directory, listeners, demo data, tokens, allow-listed origins. */
public record UpSettings(Path dataDir, String host, int httpPort, int clickhousePort, int kafkaPort, boolean demo,
                         Path chdbLib, List<String> tokens, List<String> allowedOrigins) {

    public UpSettings {
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(host, "host");
        tokens = List.copyOf(tokens);
        allowedOrigins = List.copyOf(allowedOrigins);
    }

    /** No origin besides caplab's own page may make state-changing calls. */
    public UpSettings(Path dataDir, String host, int httpPort, int clickhousePort, int kafkaPort, boolean demo,
                      Path chdbLib, List<String> tokens) {
        this(dataDir, host, httpPort, clickhousePort, kafkaPort, demo, chdbLib, tokens, List.of());
    }
}
