package dev.caplab.schema.topic;

import java.util.Map;
import java.util.Objects;

/** A Kafka topic caplab owns: its name, partition count and topic-level configs. */
public record TopicSpec(String name, int partitions, Map<String, String> configs, String purpose) {

    public TopicSpec {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("topic name must not be blank");
        }
        if (partitions < 1) {
            throw new IllegalArgumentException("topic " + name + ": partitions must be >= 1, was " + partitions);
        }
        configs = Map.copyOf(configs);
        Objects.requireNonNull(purpose, "purpose");
    }

    /** True when the topic is log-compacted (keeps the latest value per key). */
    public boolean compacted() {
        return configs.getOrDefault("cleanup.policy", "delete").contains("compact");
    }
}
