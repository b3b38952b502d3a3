package dev.caplab.app.web;

import dev.caplab.schema.health.RoleStatus;
import dev.caplab.schema.kafka.KafkaClientSecurity;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

/** Whether the Kafka cluster answers a metadata request within a few seconds. */
public final class BrokerProbe implements AutoCloseable {

    static final Duration TIMEOUT = Duration.ofSeconds(3);
    private final Admin admin;

    public BrokerProbe(String bootstrapServers, KafkaClientSecurity security) {
        this.admin = Admin.create(security.applyTo(new HashMap<>(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis()))));
    }

    /** The admin client, shared with the consumer-group probes. */
    Admin admin() {
        return admin;
    }

    public RoleStatus check() {
        try {
            int brokers = admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) TIMEOUT.toMillis()))
                    .nodes().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).size();
            return new RoleStatus("broker", brokers > 0, brokers + " broker(s) reachable");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new RoleStatus("broker", false, "interrupted");
        } catch (Exception e) {
            return new RoleStatus("broker", false, "unreachable: " + e);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
