package dev.caplab.query.throughput;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.caplab.analysis.throughput.GeneratorLimit;
import dev.caplab.schema.event.RunThroughputLimit;
import java.util.Objects;

/**
 * A run's throughput limit as the API serves it: the conclusion's {@link RunThroughputLimit} as stored, and whether
 * the load generator, not the server, was the limit ({@link GeneratorLimit#carried}).
 */
public record ThroughputLimitView(@JsonUnwrapped RunThroughputLimit limit) {

    public ThroughputLimitView {
        Objects.requireNonNull(limit, "limit");
    }

    /** The view of {@code limit}; null without one. */
    public static ThroughputLimitView of(RunThroughputLimit limit) {
        return limit == null ? null : new ThroughputLimitView(limit);
    }

    /** The load generator, not the server, was the limit. */
    @JsonProperty("generatorLimited")
    public boolean generatorLimited() {
        return GeneratorLimit.carried(limit).isPresent();
    }
}
