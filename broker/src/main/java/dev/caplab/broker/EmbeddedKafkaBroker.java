package dev.caplab.broker;

import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.schema.topic.TopicSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real Kafka broker (KRaft, combined broker and controller) running inside this JVM, for the embedded
 * default and for integration tests. Its log lives under {@code dataDir/kafka}, so data survives a restart.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);
    private static final int NODE_ID = 1;
    private static final String CONTROLLER_LISTENER = "CONTROLLER";

    private final KafkaRaftServer server;
    private final String bootstrapServers;

    private EmbeddedKafkaBroker(KafkaRaftServer server, String bootstrapServers) {
        this.server = server;
        this.bootstrapServers = bootstrapServers;
    }

    /** Formats the log directory on first use, starts the broker and creates every catalog topic that is missing. */
    public static EmbeddedKafkaBroker start(BrokerSettings settings) {
        long started = System.nanoTime();
        int[] ports = Ports.claim(settings.host(), new String[] {"Kafka", "Kafka controller"},
                new int[] {settings.port(), 0});
        int port = ports[0];
        int controllerPort = ports[1];
        Path logDir = settings.dataDir().resolve("kafka").toAbsolutePath();
        Properties props = brokerProperties(settings.host(), port, controllerPort, logDir);
        format(logDir, controllerPort, settings.host());
        KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(props), Time.SYSTEM);
        server.startup();
        EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(server, settings.host() + ":" + port);
        try {
            broker.createTopics(TopicCatalog.all());
        } catch (RuntimeException e) {
            broker.close();
            throw e;
        }
        log.info("Embedded Kafka broker (KRaft) listening on {} with data in {}, up in {} ms", broker.bootstrapServers,
                logDir, Duration.ofNanos(System.nanoTime() - started).toMillis());
        log.warn("Single embedded broker: replication factor 1, so exactly-once here is only a demonstration; "
                + "use three brokers with replication factor 3 in production (docker compose profile 'ha')");
        return broker;
    }

    /** host:port for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** Creates the topics that do not exist yet, with their catalog configs and one replica. */
    public void createTopics(List<TopicSpec> topics) {
        TopicProvisioner.ensure(bootstrapServers, topics, (short) 1);
    }

    /** Stops the broker and waits until its log is closed. */
    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
    }

    private static Properties brokerProperties(String host, int port, int controllerPort, Path logDir) {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", String.valueOf(NODE_ID));
        p.put("controller.quorum.voters", NODE_ID + "@" + host + ":" + controllerPort);
        p.put("listeners", "PLAINTEXT://" + host + ":" + port + "," + CONTROLLER_LISTENER + "://" + host + ":" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://" + host + ":" + port);
        p.put("controller.listener.names", CONTROLLER_LISTENER);
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", logDir.toString());
        p.put("metadata.log.dir", logDir.toString());
        // One broker: every internal topic must live with a single replica.
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "6");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "6");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("default.replication.factor", "1");
        p.put("min.insync.replicas", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        // Topics come from the catalog (or Kafka Streams' admin calls), never from a typo in a producer.
        p.put("auto.create.topics.enable", "false");
        return p;
    }

    private static void format(Path logDir, int controllerPort, String host) {
        if (Files.exists(logDir.resolve("meta.properties"))) {
            return; // formatted by an earlier start: keep its cluster id and data
        }
        try {
            Files.createDirectories(logDir);
            new Formatter()
                    .setClusterId(Uuid.randomUuid().toString())
                    .setNodeId(NODE_ID)
                    .setControllerListenerName(CONTROLLER_LISTENER)
                    .setMetadataLogDirectory(logDir.toString())
                    .setDirectories(List.of(logDir.toString()))
                    .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                    .setPrintStream(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()))
                    .run();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create Kafka log dir " + logDir, e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot format Kafka log dir " + logDir + " (controller " + host + ":"
                    + controllerPort + ")", e);
        }
    }
}
