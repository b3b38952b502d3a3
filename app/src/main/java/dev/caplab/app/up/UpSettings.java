package dev.caplab.app.up;

import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.verdict.DefaultRules;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What {@code caplab up} was asked for: data directory, listeners, demo data, tokens, allow-listed origins, how
 * long a run nobody started may stay idle before it ends, the nice value of its background threads
 * ({@link BackgroundPriority}; 0 leaves them at ingest's priority) and how many sink workers copy Kafka into the
 * engine ({@link dev.caplab.sink.SinkWorkers}), and the SLO rules runs without their own are judged against.
 */
public record UpSettings(Path dataDir, String host, int httpPort, int clickhousePort, int kafkaPort, boolean demo,
                         Path chdbLib, List<String> tokens, List<String> allowedOrigins, Duration runIdleEnd,
                         int backgroundNice, int sinkWorkers, DefaultRules defaultRules) {

    /**
     * Two: one sink thread alternated between encoding a batch and waiting for chDB to insert it, so a backlog was
     * copied on about one core of two; a second worker overlaps the two halves (bench/README.md, "Sink workers").
     */
    public static final int DEFAULT_SINK_WORKERS = 2;

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
        Objects.requireNonNull(defaultRules, "defaultRules");
        if (sinkWorkers < 1) {
            throw new IllegalArgumentException("--sink-workers must be >= 1, was " + sinkWorkers);
        }
    }

    /** Background threads at {@link BackgroundPriority#DEFAULT_NICE}, {@link #DEFAULT_SINK_WORKERS} sink workers. */
    public UpSettings(Path dataDir, String host, int httpPort, int clickhousePort, int kafkaPort, boolean demo,
                      Path chdbLib, List<String> tokens, List<String> allowedOrigins, Duration runIdleEnd) {
        this(dataDir, host, httpPort, clickhousePort, kafkaPort, demo, chdbLib, tokens, allowedOrigins, runIdleEnd,
                BackgroundPriority.DEFAULT_NICE, DEFAULT_SINK_WORKERS, DefaultRules.NONE);
    }

    /** The default idle time ({@link TopologySettings#DEFAULT_RUN_IDLE_END}). */
    public UpSettings(Path dataDir, String host, int httpPort, int clickhousePort, int kafkaPort, boolean demo,
                      Path chdbLib, List<String> tokens, List<String> allowedOrigins) {
        this(dataDir, host, httpPort, clickhousePort, kafkaPort, demo, chdbLib, tokens, allowedOrigins,
                TopologySettings.DEFAULT_RUN_IDLE_END);
    }

    public UpSettings withRunIdleEnd(Duration idle) {
        return new UpSettings(dataDir, host, httpPort, clickhousePort, kafkaPort, demo, chdbLib, tokens,
                allowedOrigins, idle, backgroundNice, sinkWorkers, defaultRules);
    }

    public UpSettings withBackgroundNice(int nice) {
        return new UpSettings(dataDir, host, httpPort, clickhousePort, kafkaPort, demo, chdbLib, tokens,
                allowedOrigins, runIdleEnd, nice, sinkWorkers, defaultRules);
    }

    public UpSettings withSinkWorkers(int workers) {
        return new UpSettings(dataDir, host, httpPort, clickhousePort, kafkaPort, demo, chdbLib, tokens,
                allowedOrigins, runIdleEnd, backgroundNice, workers, defaultRules);
    }

    /** These settings with SLO rules for runs that bring none ({@code --default-slo}). */
    public UpSettings withDefaultRules(DefaultRules rules) {
        return new UpSettings(dataDir, host, httpPort, clickhousePort, kafkaPort, demo, chdbLib, tokens,
                allowedOrigins, runIdleEnd, backgroundNice, sinkWorkers, rules);
    }

    /** No origin besides caplab's own page may make state-changing calls. */
    public UpSettings(Path dataDir, String host, int httpPort, int clickhousePort, int kafkaPort, boolean demo,
                      Path chdbLib, List<String> tokens) {
        this(dataDir, host, httpPort, clickhousePort, kafkaPort, demo, chdbLib, tokens, List.of());
    }
}
