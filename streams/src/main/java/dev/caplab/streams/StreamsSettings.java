package dev.caplab.streams;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.streams.rebuild.Generation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Where and how the streams application runs: brokers, application id, state directory, commit interval, the
 * {@link Generation} its derived versions carry ({@link Generation#LIVE} but for a rebuild), and how it logs in.
 */
public record StreamsSettings(String bootstrapServers, String applicationId, Path stateDir, Duration commitInterval,
                              int threads, TopologySettings topology, Generation generation,
                              KafkaClientSecurity kafkaSecurity) {

    public static final String DEFAULT_APPLICATION_ID = "caplab-streams";

    public StreamsSettings {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(applicationId, "applicationId");
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(commitInterval, "commitInterval");
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(generation, "generation");
        Objects.requireNonNull(kafkaSecurity, "kafkaSecurity");
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, was " + threads);
        }
    }

    /** The live application ({@link Generation#LIVE}), not authenticating (PLAINTEXT). */
    public StreamsSettings(String bootstrapServers, String applicationId, Path stateDir, Duration commitInterval,
            int threads, TopologySettings topology) {
        this(bootstrapServers, applicationId, stateDir, commitInterval, threads, topology, Generation.LIVE,
                KafkaClientSecurity.NONE);
    }

    /**
     * Defaults for one machine: 1 thread, 1 s commits (bounds exactly-once latency), default topology settings,
     * PLAINTEXT ({@link #withKafkaSecurity} to log in).
     */
    public static StreamsSettings of(String bootstrapServers, Path stateDir) {
        return new StreamsSettings(bootstrapServers, DEFAULT_APPLICATION_ID, stateDir, Duration.ofSeconds(1), 1,
                TopologySettings.defaults());
    }

    public StreamsSettings withApplicationId(String id) {
        return new StreamsSettings(bootstrapServers, id, stateDir, commitInterval, threads, topology, generation,
                kafkaSecurity);
    }

    public StreamsSettings withStateDir(Path dir) {
        return new StreamsSettings(bootstrapServers, applicationId, dir, commitInterval, threads, topology, generation,
                kafkaSecurity);
    }

    public StreamsSettings withGeneration(Generation g) {
        return new StreamsSettings(bootstrapServers, applicationId, stateDir, commitInterval, threads, topology, g,
                kafkaSecurity);
    }

    public StreamsSettings withTopology(TopologySettings t) {
        return new StreamsSettings(bootstrapServers, applicationId, stateDir, commitInterval, threads, t, generation,
                kafkaSecurity);
    }

    public StreamsSettings withKafkaSecurity(KafkaClientSecurity s) {
        return new StreamsSettings(bootstrapServers, applicationId, stateDir, commitInterval, threads, topology,
                generation, s);
    }
}
