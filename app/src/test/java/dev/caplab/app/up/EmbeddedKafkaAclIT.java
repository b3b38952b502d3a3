package dev.caplab.app.up;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.broker.EmbeddedKafkaBroker;
import dev.caplab.broker.KafkaProbe;
import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.streams.StreamsSettings;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a write token buys on {@code caplab up --token}'s Kafka port, tried by an attacker holding one: the broker
 * {@link EmbeddedKafkaAccess} configures from the tokens, logged in as the tools' user with the write token. It may
 * write raw samples and lifecycle events and read run conclusions (the stepper), nothing more; a read token does not
 * log in at all.
 */
class EmbeddedKafkaAclIT {

    private static final String WRITER = "acl-it-write-token-0123456789";
    private static final String READER = "acl-it-read-token-0123456789";
    private static final int TIMEOUT_S = 10;

    @TempDir
    static Path dataDir;
    private static EmbeddedKafkaBroker broker;
    private static KafkaClientSecurity writer;
    private static EmbeddedKafkaAccess access;

    @BeforeAll
    static void start() {
        access = EmbeddedKafkaAccess.of(new UpSettings(dataDir, "127.0.0.1", 0, 0, 0, false, null,
                List.of(WRITER + "=read,write", READER + "=read")));
        broker = EmbeddedKafkaBroker.start(access.broker());
        writer = KafkaClientSecurity.plain(EmbeddedKafkaAccess.EXTERNAL_USER, WRITER);
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aWriterProducesRawSamplesAndLifecycleAndReadsConclusions() {
        assertThat(KafkaProbe.produce(broker.bootstrapServers(), writer, TopicCatalog.SAMPLES, "sample")).isNull();
        assertThat(KafkaProbe.produce(broker.bootstrapServers(), writer, TopicCatalog.RUNS, "lifecycle")).isNull();
        assertThat(KafkaProbe.read(broker.bootstrapServers(), writer, TopicCatalog.CONCLUSIONS)).isNull();
    }

    @Test
    void ingestReadsTheLifecycleTopicItWatchesForRunEnds() {
        // ingest's LifecycleWatcher reads caplab.runs from its start without a group, to split writes into a new
        // run after an idle end
        assertThat(KafkaProbe.read(broker.bootstrapServers(), access.roles().ingest(), TopicCatalog.RUNS)).isNull();
    }

    @Test
    void aWriterCannotDeleteATopic() {
        assertThat(adminFailure(admin -> admin.deleteTopics(List.of(TopicCatalog.SAMPLES)).all()))
                .isInstanceOf(TopicAuthorizationException.class);
        assertThat(adminFailure(admin -> admin.listTopics().names())).isNull();
    }

    @Test
    void aWriterCannotAlterATopicsConfig() {
        ConfigResource runs = new ConfigResource(ConfigResource.Type.TOPIC, TopicCatalog.RUNS);
        AlterConfigOp shortRetention = new AlterConfigOp(new ConfigEntry("retention.ms", "1000"),
                AlterConfigOp.OpType.SET);
        assertThat(adminFailure(admin -> admin.incrementalAlterConfigs(Map.of(runs, List.of(shortRetention))).all()))
                .isInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void aWriterCannotCreateATopic() {
        assertThat(adminFailure(admin -> admin.createTopics(List.of(new NewTopic("caplab.forged", 1, (short) 1))).all()))
                .isInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void aWriterCannotWriteDerivedTopics() {
        for (String derived : List.of(TopicCatalog.CONCLUSIONS, TopicCatalog.STEP_AGGREGATES, TopicCatalog.VERDICTS,
                TopicCatalog.FITS, TopicCatalog.ALERTS)) {
            assertThat(KafkaProbe.produce(broker.bootstrapServers(), writer, derived, "forged")).as(derived)
                    .isInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    void aWriterCannotReadRawSamples() {
        assertThat(KafkaProbe.read(broker.bootstrapServers(), writer, TopicCatalog.SAMPLES))
                .isInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void aWriterCannotTakeStreamsTransactionalIdToFenceIt() {
        // Kafka Streams under exactly_once_v2 names its producers <application id>-<process id>-<thread>.
        String streamsId = StreamsSettings.DEFAULT_APPLICATION_ID + "-" + UUID.randomUUID() + "-1";
        Map<String, Object> config = writer.applyTo(new HashMap<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, streamsId,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, TIMEOUT_S * 1000)));
        Throwable failure = null;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            producer.initTransactions();
        } catch (RuntimeException e) {
            failure = e;
        }
        assertThat(failure).isInstanceOf(TransactionalIdAuthorizationException.class);
    }

    @Test
    void aReadTokenDoesNotLogIn() {
        KafkaClientSecurity reader = KafkaClientSecurity.plain(EmbeddedKafkaAccess.EXTERNAL_USER, READER);
        assertThat(KafkaProbe.produce(broker.bootstrapServers(), reader, TopicCatalog.SAMPLES, "forged"))
                .isInstanceOf(SaslAuthenticationException.class);
        assertThat(KafkaProbe.read(broker.bootstrapServers(), reader, TopicCatalog.CONCLUSIONS))
                .isInstanceOf(SaslAuthenticationException.class);
    }

    private interface AdminCall {
        org.apache.kafka.common.KafkaFuture<?> call(Admin admin);
    }

    /** Why the writer's admin call failed (unwrapped), or null when it succeeded. */
    private static Throwable adminFailure(AdminCall call) {
        try (Admin admin = Admin.create(writer.applyTo(new HashMap<>(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, TIMEOUT_S * 1000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TIMEOUT_S * 1000))))) {
            call.call(admin).get(TIMEOUT_S, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            return e;
        }
    }
}
