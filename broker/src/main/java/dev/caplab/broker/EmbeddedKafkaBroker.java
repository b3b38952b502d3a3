package dev.caplab.broker;

import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.schema.topic.TopicSpec;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real Kafka broker (KRaft, combined broker and controller) running inside this JVM, for the embedded
 * default and for integration tests. Its log lives under {@code dataDir/kafka}, so data survives a restart.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);
    private static final int NODE_ID = 1;

    private final KraftNode node;

    private EmbeddedKafkaBroker(KraftNode node) {
        this.node = node;
    }

    /** Formats the log directory on first use, starts the broker and creates every catalog topic that is missing. */
    public static EmbeddedKafkaBroker start(BrokerSettings settings) {
        long started = System.nanoTime();
        int[] ports = Ports.claim(settings.host(), new String[] {"Kafka", "Kafka controller"},
                new int[] {settings.port(), 0});
        KraftNode.Spec spec = new KraftNode.Spec(NODE_ID, settings.host(), ports[0], ports[1],
                KraftNode.voter(NODE_ID, settings.host(), ports[1]),
                settings.dataDir().resolve("kafka"), Replication.SINGLE);
        EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(KraftNode.start(spec, Uuid.randomUuid().toString(),
                new Properties()));
        try {
            broker.createTopics(TopicCatalog.all());
        } catch (RuntimeException e) {
            broker.close();
            throw e;
        }
        log.info("Embedded Kafka broker (KRaft) listening on {} with data in {}, up in {} ms", broker.bootstrapServers(),
                spec.logDir(), Duration.ofNanos(System.nanoTime() - started).toMillis());
        log.warn("Single embedded broker: replication factor 1, so exactly-once here is only a demonstration; "
                + "use three brokers with replication factor 3 in production (docker compose profile 'ha')");
        return broker;
    }

    /** host:port for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return node.spec().bootstrapServers();
    }

    /** Creates the topics that do not exist yet, with their catalog configs and one replica. */
    public void createTopics(List<TopicSpec> topics) {
        TopicProvisioner.ensure(bootstrapServers(), topics, Replication.SINGLE.factor());
    }

    /** Stops the broker and waits until its log is closed. */
    @Override
    public void close() {
        node.close();
    }
}
