package dev.caplab.broker;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.schema.topic.TopicSpec;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real Kafka broker (KRaft, combined broker and controller) running inside this JVM, for the embedded
 * default and for integration tests. Its log lives under {@code dataDir/kafka}, so data survives a restart.
 *
 * <p>With {@link BrokerAuth#saslRequired()} both listeners take only SASL/PLAIN (over SASL_PLAINTEXT: the password
 * crosses the wire unencrypted, which is fine on loopback and is said at start otherwise), and Kafka's standard
 * authorizer allows each {@link KafkaUser} only its ACLs, which the broker sets at every start (creating what is
 * missing, deleting any other). The broker itself logs in as {@link BrokerAuth#BROKER_USER}, the only super user, with
 * a password drawn at every start and never printed ({@link #clientSecurity()}). The controller listener always binds
 * loopback: it is internal.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);
    private static final int NODE_ID = 1;
    private static final String LOOPBACK = BrokerListeners.LOOPBACK;
    /** 32 random bytes: far beyond guessing through a listener that answers each try with a round trip. */
    private static final int INTERNAL_PASSWORD_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final KraftNode node;
    private final KafkaClientSecurity clientSecurity;
    private final Optional<Path> certificate;

    private EmbeddedKafkaBroker(KraftNode node, KafkaClientSecurity clientSecurity, Optional<Path> certificate) {
        this.node = node;
        this.clientSecurity = clientSecurity;
        this.certificate = certificate;
    }

    /** Formats the log directory on first use, starts the broker and creates every catalog topic that is missing. */
    public static EmbeddedKafkaBroker start(BrokerSettings settings) {
        long started = System.nanoTime();
        int[] ports = Ports.claim(new String[] {settings.host(), LOOPBACK}, new String[] {"Kafka", "Kafka controller"},
                new int[] {settings.port(), 0});
        Optional<BrokerTls> tls = settings.tls()
                ? Optional.of(BrokerTls.ensure(settings.tlsDir(), settings.advertisedHost())) : Optional.empty();
        KafkaClientSecurity login = settings.auth().saslRequired()
                ? randomLogin(BrokerAuth.BROKER_USER) : KafkaClientSecurity.NONE;
        KafkaClientSecurity internal = tls.map(t -> login.trusting(t.certificate())).orElse(login);
        // the controller listens on loopback only: only this broker talks to it
        KraftNode.Spec spec = new KraftNode.Spec(NODE_ID, settings.advertisedHost(), ports[0], ports[1],
                KraftNode.voter(NODE_ID, LOOPBACK, ports[1]), settings.dataDir().resolve("kafka"), Replication.SINGLE);
        Properties listeners = new BrokerListeners(settings.auth(), internal, tls)
                .properties(settings.host(), settings.advertisedHost(), ports[0], ports[1]);
        EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(KraftNode.start(spec, Uuid.randomUuid().toString(),
                listeners), internal, tls.map(BrokerTls::certificate));
        try {
            broker.createTopics(TopicCatalog.all());
            if (settings.auth().saslRequired()) {
                AclProvisioner.ensure(broker.bootstrapServers(), internal, settings.auth().users().stream()
                        .flatMap(u -> u.acls().stream()).toList(), true);
            }
        } catch (RuntimeException e) {
            broker.close();
            throw e;
        }
        log.info("Embedded Kafka broker (KRaft) listening on {} ({}) with data in {}, up in {} ms",
                broker.bootstrapServers(), tls.isPresent() ? "SASL_SSL and ACLs required"
                        : settings.auth().saslRequired() ? "SASL/PLAIN and ACLs required" : "no authentication",
                spec.logDir(), Duration.ofNanos(System.nanoTime() - started).toMillis());
        log.warn("Single embedded broker: replication factor 1, so exactly-once here is only a demonstration; "
                + "use three brokers with replication factor 3 in production (docker compose profile 'ha')");
        return broker;
    }

    /** host:port for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return node.spec().bootstrapServers();
    }

    /**
     * How the broker logs in to itself: {@link KafkaClientSecurity#NONE} when it is open, else the super user
     * {@link BrokerAuth#BROKER_USER}. For provisioning and tests; caplab's roles log in as their own {@link KafkaUser}.
     */
    public KafkaClientSecurity clientSecurity() {
        return clientSecurity;
    }

    /**
     * The PEM certificate the client listener presents when it speaks SASL_SSL: what every client, caplab's roles
     * included, must trust ({@link KafkaClientSecurity#trusting}); empty without TLS.
     */
    public Optional<Path> certificate() {
        return certificate;
    }

    /** Creates the topics that do not exist yet, with their catalog configs and one replica. */
    public void createTopics(List<TopicSpec> topics) {
        TopicProvisioner.ensure(bootstrapServers(), clientSecurity, topics, Replication.SINGLE.factor());
    }

    /** Stops the broker and waits until its log is closed. */
    @Override
    public void close() {
        node.close();
    }

    /** A SASL/PLAIN login as {@code user} with a password drawn now (256 random bits), for a user made per start. */
    public static KafkaClientSecurity randomLogin(String user) {
        byte[] bytes = new byte[INTERNAL_PASSWORD_BYTES];
        RANDOM.nextBytes(bytes);
        return KafkaClientSecurity.plain(user, Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
    }
}
