package dev.caplab.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.schema.topic.TopicCatalog;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaBrokerIT {

    @TempDir
    Path dataDir;

    @Test
    void transactionalBatchSurvivesRestartOnTheSameDataDir() throws Exception {
        List<String> committed = List.of("a", "b", "c");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(BrokerSettings.loopback(dataDir, 0))) {
            assertThat(topicNames(broker)).containsAll(TopicCatalog.all().stream().map(t -> t.name()).toList());
            try (KafkaProducer<String, String> producer = transactionalProducer(broker)) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(TopicCatalog.RUNS, "run-1", "aborted")).get();
                producer.abortTransaction();
                producer.beginTransaction();
                for (String value : committed) {
                    producer.send(new ProducerRecord<>(TopicCatalog.RUNS, "run-1", value));
                }
                producer.commitTransaction();
            }
            assertThat(readCommitted(broker, committed.size())).containsExactlyElementsOf(committed);
        }

        try (EmbeddedKafkaBroker restarted = EmbeddedKafkaBroker.start(BrokerSettings.loopback(dataDir, 0))) {
            assertThat(readCommitted(restarted, committed.size())).containsExactlyElementsOf(committed);
        }
    }

    @Test
    void portInUseFailsNamingThePort() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            assertThatThrownBy(() -> EmbeddedKafkaBroker.start(BrokerSettings.loopback(dataDir, port)))
                    .isInstanceOf(PortInUseException.class)
                    .hasMessageContaining("Kafka port " + port);
        }
    }

    @Test
    void withSaslOnlyTheBrokerAndGivenUsersGetInEachWithItsAcls() throws Exception {
        KafkaUser tools = new KafkaUser(KafkaClientSecurity.plain("caplab", "external-write-token-0123456789"),
                CaplabAcls.tools("caplab"));
        BrokerSettings settings = BrokerSettings.loopback(dataDir, 0).withAuth(BrokerAuth.saslPlain(List.of(tools)));
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(settings)) {
            String bootstrap = broker.bootstrapServers();
            KafkaClientSecurity internal = broker.clientSecurity();
            assertThat(internal.user()).isEqualTo(BrokerAuth.BROKER_USER);
            assertThat(internal.toString()).doesNotContain(internal.password());
            // The broker created the catalog's topics through its own listener, logged in as its super user.
            assertThat(topicNames(bootstrap, internal)).containsAll(TopicCatalog.all().stream().map(t -> t.name()).toList());

            // The super user may do anything (transactions, read_committed); a given user what its ACLs allow.
            try (KafkaProducer<String, String> producer = transactionalProducer(bootstrap, internal)) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(TopicCatalog.RUNS, "run-1", "internal"));
                producer.commitTransaction();
            }
            assertThat(KafkaProbe.produce(bootstrap, tools.login(), TopicCatalog.RUNS, "external")).isNull();
            assertThat(KafkaProbe.produce(bootstrap, tools.login(), TopicCatalog.FITS, "forged"))
                    .isInstanceOf(TopicAuthorizationException.class);
            assertThat(readCommitted(bootstrap, internal, 2)).containsExactlyInAnyOrder("internal", "external");

            // Anyone else on the host: no credentials, or a wrong password, neither produces nor consumes.
            KafkaClientSecurity wrong = KafkaClientSecurity.plain("caplab", "not-the-token");
            KafkaClientSecurity guessedBroker = KafkaClientSecurity.plain(BrokerAuth.BROKER_USER, "guess");
            assertThat(KafkaProbe.produce(bootstrap, KafkaClientSecurity.NONE, TopicCatalog.RUNS, "anonymous"))
                    .isInstanceOf(org.apache.kafka.common.errors.TimeoutException.class);
            assertThat(KafkaProbe.consume(bootstrap, KafkaClientSecurity.NONE, TopicCatalog.RUNS))
                    .isInstanceOf(org.apache.kafka.common.errors.TimeoutException.class);
            for (KafkaClientSecurity refused : List.of(wrong, guessedBroker)) {
                assertThat(KafkaProbe.produce(bootstrap, refused, TopicCatalog.RUNS, "forged")).as(refused.toString())
                        .isInstanceOf(SaslAuthenticationException.class);
                assertThat(KafkaProbe.consume(bootstrap, refused, TopicCatalog.RUNS)).as(refused.toString())
                        .isInstanceOf(SaslAuthenticationException.class);
            }
            assertThat(readCommitted(bootstrap, internal, 2)).containsExactlyInAnyOrder("internal", "external");
        }
    }

    @Test
    void aRestartSetsExactlyTheAclsOfTheUsersGivenNow() throws Exception {
        KafkaUser streams = new KafkaUser(KafkaClientSecurity.plain("streams_role", "streams-password-0123456789"),
                CaplabAcls.streams("streams_role", "caplab-streams"));
        KafkaUser tools = new KafkaUser(KafkaClientSecurity.plain("caplab", "external-write-token-0123456789"),
                CaplabAcls.tools("caplab"));
        BrokerSettings both = BrokerSettings.loopback(dataDir, 0)
                .withAuth(BrokerAuth.saslPlain(List.of(streams, tools)));
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(both)) {
            assertThat(acls(broker)).containsExactlyInAnyOrderElementsOf(
                    java.util.stream.Stream.concat(streams.acls().stream(), tools.acls().stream()).toList());
        }
        // Started again without the tools' user (no write token any more): its ACLs are gone with it.
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(both.withAuth(
                BrokerAuth.saslPlain(List.of(streams))))) {
            assertThat(acls(broker)).containsExactlyInAnyOrderElementsOf(streams.acls());

            // caplab migrate's way on a shared cluster: only adds, once, and never deletes another's ACL
            assertThat(AclProvisioner.ensure(broker.bootstrapServers(), broker.clientSecurity(), tools.acls(), false))
                    .containsExactlyInAnyOrderElementsOf(tools.acls());
            assertThat(AclProvisioner.ensure(broker.bootstrapServers(), broker.clientSecurity(), tools.acls(), false))
                    .isEmpty();
            assertThat(acls(broker)).containsExactlyInAnyOrderElementsOf(
                    java.util.stream.Stream.concat(streams.acls().stream(), tools.acls().stream()).toList());
        }
    }

    @Test
    void withTlsOnlyClientsTrustingItsCertificateGetInAndTheCertificateOutlivesARestart(@TempDir Path elsewhere)
            throws Exception {
        KafkaUser tools = new KafkaUser(KafkaClientSecurity.plain("caplab", "external-write-token-0123456789"),
                CaplabAcls.tools("caplab"));
        BrokerSettings settings = BrokerSettings.loopback(dataDir, 0).withAuth(BrokerAuth.saslPlain(List.of(tools)))
                .withTls(true);
        Path certificate;
        byte[] issued;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(settings)) {
            String bootstrap = broker.bootstrapServers();
            certificate = broker.certificate().orElseThrow();
            assertThat(certificate).isEqualTo(BrokerTls.certificateIn(settings.tlsDir()));
            issued = Files.readAllBytes(certificate);
            assertThat(new String(issued, java.nio.charset.StandardCharsets.US_ASCII))
                    .startsWith("-----BEGIN CERTIFICATE-----");

            assertThat(KafkaProbe.produce(bootstrap, tools.login().trusting(certificate), TopicCatalog.RUNS, "tls"))
                    .isNull();
            // The broker talks to itself over the same listener: transaction markers reach the partitions.
            try (KafkaProducer<String, String> producer = transactionalProducer(bootstrap, broker.clientSecurity())) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(TopicCatalog.RUNS, "run-1", "internal"));
                producer.commitTransaction();
            }
            assertThat(readCommitted(bootstrap, broker.clientSecurity(), 2))
                    .containsExactlyInAnyOrder("tls", "internal");

            // The password in clear is never read: the listener expects a TLS handshake first.
            assertThat(KafkaProbe.produce(bootstrap, tools.login(), TopicCatalog.RUNS, "clear"))
                    .isInstanceOf(org.apache.kafka.common.errors.TimeoutException.class);
            // A client trusting another certificate refuses this broker.
            Path other = BrokerTls.ensure(elsewhere, "127.0.0.1").certificate();
            assertThat(KafkaProbe.produce(bootstrap, tools.login().trusting(other), TopicCatalog.RUNS, "mitm"))
                    .isInstanceOf(SslAuthenticationException.class);
        }
        try (EmbeddedKafkaBroker restarted = EmbeddedKafkaBroker.start(settings)) {
            assertThat(Files.readAllBytes(certificate)).isEqualTo(issued);
            assertThat(KafkaProbe.produce(restarted.bootstrapServers(), tools.login().trusting(certificate),
                    TopicCatalog.RUNS, "after restart")).isNull();
        }
    }

    private static java.util.Collection<org.apache.kafka.common.acl.AclBinding> acls(EmbeddedKafkaBroker broker)
            throws Exception {
        try (Admin admin = Admin.create(broker.clientSecurity().applyTo(new HashMap<>(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))))) {
            return admin.describeAcls(org.apache.kafka.common.acl.AclBindingFilter.ANY).values().get();
        }
    }

    private static Set<String> topicNames(EmbeddedKafkaBroker broker) throws Exception {
        return topicNames(broker.bootstrapServers(), broker.clientSecurity());
    }

    private static Set<String> topicNames(String bootstrap, KafkaClientSecurity security) throws Exception {
        try (Admin admin = Admin.create(security.applyTo(new HashMap<>(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))))) {
            return admin.listTopics().names().get();
        }
    }

    private static KafkaProducer<String, String> transactionalProducer(EmbeddedKafkaBroker broker) {
        return transactionalProducer(broker.bootstrapServers(), broker.clientSecurity());
    }

    private static KafkaProducer<String, String> transactionalProducer(String bootstrap, KafkaClientSecurity security) {
        return new KafkaProducer<>(security.applyTo(new HashMap<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "it-" + UUID.randomUUID(),
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true))),
                new StringSerializer(), new StringSerializer());
    }

    private static List<String> readCommitted(EmbeddedKafkaBroker broker, int expected) {
        return readCommitted(broker.bootstrapServers(), broker.clientSecurity(), expected);
    }

    private static List<String> readCommitted(String bootstrap, KafkaClientSecurity security, int expected) {
        Map<String, Object> config = security.applyTo(new HashMap<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "it-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")));
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(TopicCatalog.RUNS));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (values.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
            // One more poll proves nothing beyond the committed batch (the aborted record) is visible.
            consumer.poll(Duration.ofMillis(500)).forEach(r -> values.add(r.value()));
        }
        return values;
    }
}
