package dev.caplab.app.cli;

import dev.caplab.broker.TopicProvisioner;
import dev.caplab.schema.topic.TopicCatalog;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code caplab migrate}: creates caplab's topics and applies ClickHouse migrations; safe to run on every deploy. */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = "Creates the catalog's Kafka topics that are missing and applies pending ClickHouse migrations.")
public final class MigrateCommand implements Callable<Integer> {

    @Mixin
    ExternalOptions external;

    @Option(names = "--replication-factor", defaultValue = "${env:CAPLAB_REPLICATION_FACTOR:-1}", paramLabel = "N",
            description = "Replicas of each new topic; 3 in production (default: ${DEFAULT-VALUE}).")
    short replicationFactor;

    @Override
    public Integer call() {
        List<String> created = TopicProvisioner.ensure(external.bootstrap, external.kafkaLogin.security(),
                TopicCatalog.all(), replicationFactor);
        System.out.println("caplab migrate: topics created: " + (created.isEmpty() ? "none (all exist)" : created));
        external.clickhouse().migrate();
        System.out.println("caplab migrate: ClickHouse database " + external.clickhouse().database() + " is up to date");
        return 0;
    }
}
