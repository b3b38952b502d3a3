package dev.caplab.broker;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.schema.topic.TopicSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
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
 *
 * <p>With {@link BrokerAuth#saslRequired()} both listeners take only SASL/PLAIN (over SASL_PLAINTEXT: the password
 * crosses the wire unencrypted, which is fine on loopback and is said at start otherwise); the broker itself,
 * and caplab's roles through {@link #clientSecurity()}, log in as {@link BrokerAuth#INTERNAL_USER} with a password
 * drawn at every start and never printed. The controller listener always binds loopback: it is internal.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);
    private static final int NODE_ID = 1;
    private static final String CONTROLLER_LISTENER = BrokerListeners.CONTROLLER;
    private static final String LOOPBACK = BrokerListeners.LOOPBACK;
    /** 32 random bytes: far beyond guessing through a listener that answers each try with a round trip. */
    private static final int INTERNAL_PASSWORD_BYTES = 32;

    private final KafkaRaftServer server;
    private final String bootstrapServers;
    private final KafkaClientSecurity clientSecurity;

    private EmbeddedKafkaBroker(KafkaRaftServer server, String bootstrapServers, KafkaClientSecurity clientSecurity) {
        this.server = server;
        this.bootstrapServers = bootstrapServers;
        this.clientSecurity = clientSecurity;
    }

    /** Formats the log directory on first use, starts the broker and creates every catalog topic that is missing. */
    public static EmbeddedKafkaBroker start(BrokerSettings settings) {
        long started = System.nanoTime();
        int[] ports = Ports.claim(new String[] {settings.host(), LOOPBACK}, new String[] {"Kafka", "Kafka controller"},
                new int[] {settings.port(), 0});
        int port = ports[0];
        int controllerPort = ports[1];
        Path logDir = settings.dataDir().resolve("kafka").toAbsolutePath();
        KafkaClientSecurity internal = settings.auth().saslRequired()
                ? KafkaClientSecurity.plain(BrokerAuth.INTERNAL_USER, randomPassword()) : KafkaClientSecurity.NONE;
        Properties props = brokerProperties(controllerPort, logDir);
        props.putAll(new BrokerListeners(settings.auth(), internal).properties(settings.host(), port, controllerPort));
        format(logDir, controllerPort);
        KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(props), Time.SYSTEM);
        server.startup();
        EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(server, settings.host() + ":" + port, internal);
        try {
            broker.createTopics(TopicCatalog.all());
        } catch (RuntimeException e) {
            broker.close();
            throw e;
        }
        log.info("Embedded Kafka broker (KRaft) listening on {} ({}) with data in {}, up in {} ms",
                broker.bootstrapServers, settings.auth().saslRequired() ? "SASL/PLAIN required" : "no authentication",
                logDir, Duration.ofNanos(System.nanoTime() - started).toMillis());
        log.warn("Single embedded broker: replication factor 1, so exactly-once here is only a demonstration; "
                + "use three brokers with replication factor 3 in production (docker compose profile 'ha')");
        return broker;
    }

    /** host:port for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /**
     * How caplab's own clients log in to this broker: {@link KafkaClientSecurity#NONE} when it is open, else the
     * internal SASL/PLAIN user. Pass it to every producer, consumer, admin and streams config of a role.
     */
    public KafkaClientSecurity clientSecurity() {
        return clientSecurity;
    }

    /** Creates the topics that do not exist yet, with their catalog configs and one replica. */
    public void createTopics(List<TopicSpec> topics) {
        TopicProvisioner.ensure(bootstrapServers, clientSecurity, topics, (short) 1);
    }

    /** Stops the broker and waits until its log is closed. */
    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
    }

    private static String randomPassword() {
        byte[] bytes = new byte[INTERNAL_PASSWORD_BYTES];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static Properties brokerProperties(int controllerPort, Path logDir) {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", String.valueOf(NODE_ID));
        p.put("controller.quorum.voters", NODE_ID + "@" + LOOPBACK + ":" + controllerPort);
        p.put("controller.listener.names", CONTROLLER_LISTENER);
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

    private static void format(Path logDir, int controllerPort) {
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
            throw new IllegalStateException("cannot format Kafka log dir " + logDir + " (controller " + LOOPBACK
                    + ":" + controllerPort + ")", e);
        }
    }
}
