package dev.caplab.app.web;

import dev.caplab.schema.health.RoleStatus;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.sink.SinkSettings;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** The {@link HealthParts} of the two ways to run: every role in this JVM, or only the HTTP tier. */
public final class PipelineHealth {

    private PipelineHealth() {
    }

    /** {@code caplab up}: the broker, and the streams and sink roles' own status. */
    public static HealthParts inProcess(BrokerProbe broker, List<Supplier<RoleStatus>> roles) {
        return () -> {
            List<RoleStatus> out = new ArrayList<>();
            out.add(broker.check());
            roles.forEach(r -> out.add(r.get()));
            return out;
        };
    }

    /**
     * {@code caplab serve} alone: the broker, and the streams and sink roles through their consumer groups' lag
     * (the serving process cannot see the other JVMs; each of those answers for itself, see their health files).
     */
    public static HealthParts distributed(BrokerProbe broker, String streamsApplicationId, String sinkGroup) {
        GroupLagProbe streams = new GroupLagProbe("streams", streamsApplicationId,
                List.of(TopicCatalog.RUNS, TopicCatalog.SAMPLES), broker.admin(), Clock.systemUTC());
        GroupLagProbe sink = new GroupLagProbe("sink", sinkGroup, SinkSettings.TOPICS, broker.admin(),
                Clock.systemUTC());
        return () -> {
            RoleStatus b = broker.check();
            return b.up() ? List.of(b, streams.check(), sink.check()) : List.of(b);
        };
    }
}
