package dev.caplab.app.cli;

import dev.caplab.broker.AclProvisioner;
import dev.caplab.broker.TopicProvisioner;
import dev.caplab.schema.topic.TopicCatalog;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.kafka.common.acl.AclBinding;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code caplab migrate}: creates caplab's topics, grants each role's Kafka user its ACLs when asked, and applies
 * ClickHouse migrations; safe to run on every deploy.
 */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = "Creates the catalog's Kafka topics that are missing, with --grant-* the ACLs of each role's "
                + "Kafka user (the cluster needs an authorizer and this login the right to create ACLs), and applies "
                + "pending ClickHouse migrations.")
public final class MigrateCommand implements Callable<Integer> {

    @Mixin
    ExternalOptions external;

    @Option(names = "--replication-factor", defaultValue = "${env:CAPLAB_REPLICATION_FACTOR:-1}", paramLabel = "N",
            description = "Replicas of each new topic; 3 in production (default: ${DEFAULT-VALUE}).")
    short replicationFactor;

    @Mixin
    KafkaGrants grants;

    @Override
    public Integer call() {
        List<String> created = TopicProvisioner.ensure(external.bootstrap, external.kafkaLogin.security(),
                TopicCatalog.all(), replicationFactor);
        System.out.println("caplab migrate: topics created: " + (created.isEmpty() ? "none (all exist)" : created));
        List<AclBinding> acls = grants.acls();
        if (!acls.isEmpty()) {
            int added = AclProvisioner.ensure(external.bootstrap, external.kafkaLogin.security(), acls, false).size();
            System.out.println("caplab migrate: Kafka ACLs granted: " + acls.size() + " (" + added + " new)");
        }
        external.clickhouse().migrate();
        System.out.println("caplab migrate: ClickHouse database " + external.clickhouse().database() + " is up to date");
        return 0;
    }
}
