package dev.caplab.app.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options every role shares when it runs against an external Kafka cluster and ClickHouse server. */
public final class ExternalOptions {

    /** Default of every role's {@code --bootstrap}: env CAPLAB_BOOTSTRAP, else the embedded broker's port. */
    public static final String BOOTSTRAP_DEFAULT = "${env:CAPLAB_BOOTSTRAP:-127.0.0.1:9092}";

    @Option(names = "--bootstrap", defaultValue = BOOTSTRAP_DEFAULT, paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers (env CAPLAB_BOOTSTRAP; default: ${DEFAULT-VALUE}).")
    public String bootstrap;

    @Mixin
    public KafkaLoginOptions kafkaLogin;

    @Option(names = "--clickhouse", defaultValue = "${env:CAPLAB_CLICKHOUSE_URL:-jdbc:clickhouse://127.0.0.1:8123/caplab?compress=0}",
            paramLabel = "JDBC_URL", description = "ClickHouse JDBC URL (env CAPLAB_CLICKHOUSE_URL; default: ${DEFAULT-VALUE}).")
    public String clickhouseUrl;

    @Option(names = "--clickhouse-user", defaultValue = "${env:CAPLAB_CLICKHOUSE_USER:-default}", paramLabel = "USER",
            description = "ClickHouse user (env CAPLAB_CLICKHOUSE_USER; default: ${DEFAULT-VALUE}).")
    public String clickhouseUser;

    @Option(names = "--clickhouse-password", defaultValue = "${env:CAPLAB_CLICKHOUSE_PASSWORD:-}", paramLabel = "PASSWORD",
            description = "ClickHouse password (env CAPLAB_CLICKHOUSE_PASSWORD).")
    public String clickhousePassword;

    /** The ClickHouse these options name. */
    public ClickHouseTarget clickhouse() {
        return new ClickHouseTarget(clickhouseUrl, clickhouseUser, clickhousePassword);
    }
}
