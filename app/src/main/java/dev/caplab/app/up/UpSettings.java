package dev.caplab.app.up;

import dev.caplab.streams.TopologySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What {@code caplab up} was asked for: data directory, listeners, demo data, tokens, allow-listed origins, and how
 * long a run nobody started may stay idle before it ends.
 */
public record UpSettings(Path dataDir, String host, int httpPort, int clickhousePort, int kafkaPort, boolean demo,
                         Path chdbLib, List<String> tokens, List<String> allowedOrigins, Duration runIdleEnd) {

    public UpSettings {
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(host, "host");
        tokens = List.copyOf(tokens);
        allowedOrigins = List.copyOf(allowedOrigins);
        Objects.requireNonNull(runIdleEnd, "runIdleEnd");
    }

    /** The default idle time ({@link TopologySettings#DEFAULT_RUN_IDLE_END}). */
    public UpSettings(Path dataDir, String host, int httpPort, int clickhousePort, int kafkaPort, boolean demo,
                      Path chdbLib, List<String> tokens, List<String> allowedOrigins) {
        this(dataDir, host, httpPort, clickhousePort, kafkaPort, demo, chdbLib, tokens, allowedOrigins,
                TopologySettings.DEFAULT_RUN_IDLE_END);
    }

    public UpSettings withRunIdleEnd(Duration idle) {
        return new UpSettings(dataDir, host, httpPort, clickhousePort, kafkaPort, demo, chdbLib, tokens,
                allowedOrigins, idle);
    }

    /** No origin besides caplab's own page may make state-changing calls. */
    public UpSettings(Path dataDir, String host, int httpPort, int clickhousePort, int kafkaPort, boolean demo,
                      Path chdbLib, List<String> tokens) {
        this(dataDir, host, httpPort, clickhousePort, kafkaPort, demo, chdbLib, tokens, List.of());
    }
}
