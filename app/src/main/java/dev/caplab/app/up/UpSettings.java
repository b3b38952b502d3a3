package dev.caplab.app.up;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/** What {@code caplab up} was asked for: data directory, listeners, demo data, tokens. */
public record UpSettings(Path dataDir, String host, int httpPort, int clickhousePort, int kafkaPort, boolean demo,
                         Path chdbLib, List<String> tokens) {

    public UpSettings {
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(host, "host");
        tokens = List.copyOf(tokens);
    }
}
