package dev.caplab.app.up;

import dev.caplab.streams.TopologySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What {@code caplab up} was asked for: data directory, listeners, demo data, tokens, allow-listed origins, how
 * long a run nobody started may stay idle before it ends, and the nice value of its background threads
 * ({@link BackgroundPriority}; 0 leaves them at ingest's priority).
 */
public record UpSettings(Path dataDir, String host, int httpPort, int clickhousePort, int kafkaPort, boolean demo,
                         Path chdbLib, List<String> tokens, List<String> allowedOrigins, Duration runIdleEnd,
                         int backgroundNice) {

    public UpSettings {
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(host, "host");
        tokens = List.copyOf(tokens);
        allowedOrigins = List.copyOf(allowedOrigins);
        Objects.requireNonNull(runIdleEnd, "runIdleEnd");
        if (backgroundNice < 0 || backgroundNice > BackgroundPriority.MAX_NICE) {
            throw new IllegalArgumentException("--background-nice must be between 0 (off) and "
                    + BackgroundPriority.MAX_NICE + ", was " + backgroundNice);
        }
    }

    /** Background threads at {@link BackgroundPriority#DEFAULT_NICE}. */
    public UpSettings(Path dataDir, String host, int httpPort, int clickhousePort, int kafkaPort, boolean demo,
                      Path chdbLib, List<String> tokens, List<String> allowedOrigins, Duration runIdleEnd) {
        this(dataDir, host, httpPort, clickhousePort, kafkaPort, demo, chdbLib, tokens, allowedOrigins, runIdleEnd,
                BackgroundPriority.DEFAULT_NICE);
    }

    /** The default idle time ({@link TopologySettings#DEFAULT_RUN_IDLE_END}). */
    public UpSettings(Path dataDir, String host, int httpPort, int clickhousePort, int kafkaPort, boolean demo,
                      Path chdbLib, List<String> tokens, List<String> allowedOrigins) {
        this(dataDir, host, httpPort, clickhousePort, kafkaPort, demo, chdbLib, tokens, allowedOrigins,
                TopologySettings.DEFAULT_RUN_IDLE_END);
    }

    public UpSettings withRunIdleEnd(Duration idle) {
        return new UpSettings(dataDir, host, httpPort, clickhousePort, kafkaPort, demo, chdbLib, tokens,
                allowedOrigins, idle, backgroundNice);
    }

    public UpSettings withBackgroundNice(int nice) {
        return new UpSettings(dataDir, host, httpPort, clickhousePort, kafkaPort, demo, chdbLib, tokens,
                allowedOrigins, runIdleEnd, nice);
    }

    /** No origin besides caplab's own page may make state-changing calls. */
    public UpSettings(Path dataDir, String host, int httpPort, int clickhousePort, int kafkaPort, boolean demo,
                      Path chdbLib, List<String> tokens) {
        this(dataDir, host, httpPort, clickhousePort, kafkaPort, demo, chdbLib, tokens, List.of());
    }
}
