package dev.caplab.broker;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.schema.topic.TopicSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/** Creates caplab's topics on any Kafka cluster (embedded or external) with their catalog configs. */
public final class TopicProvisioner {

    private TopicProvisioner() {
    }

    /**
     * Creates the topics that do not exist yet; existing ones are left alone, so this is safe to run on every start.
     * Each new topic gets {@code replicationFactor} replicas and the {@code min.insync.replicas} of
     * {@link Replication#minInSyncReplicas()} (2 of 3), whatever the broker's default.
     *
     * @return the names that were created
     */
    public static List<String> ensure(String bootstrapServers, KafkaClientSecurity security, List<TopicSpec> topics,
            short replicationFactor) {
        Replication replication = new Replication(replicationFactor);
        Map<String, Object> config = new HashMap<>(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
        try (Admin admin = Admin.create(security.applyTo(config))) {
            Set<String> existing = admin.listTopics().names().get();
            List<NewTopic> missing = topics.stream()
                    .filter(t -> !existing.contains(t.name()))
                    .map(t -> new NewTopic(t.name(), t.partitions(), replicationFactor).configs(configs(t, replication)))
                    .toList();
            if (missing.isEmpty()) {
                return List.of();
            }
            try {
                admin.createTopics(missing).all().get();
            } catch (ExecutionException e) {
                // Another instance created them between our list and create: the outcome we wanted.
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
            return missing.stream().map(NewTopic::name).toList();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot create caplab topics on " + bootstrapServers, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating caplab topics on " + bootstrapServers, e);
        }
    }

    private static Map<String, String> configs(TopicSpec topic, Replication replication) {
        Map<String, String> out = new HashMap<>(topic.configs());
        out.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, String.valueOf(replication.minInSyncReplicas()));
        return out;
    }
}
