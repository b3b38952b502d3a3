package dev.caplab.app.cli;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import picocli.CommandLine.Option;

/**
 * How a role logs in to Kafka, next to its {@code --bootstrap}: SASL/PLAIN when a user is given (for {@code caplab
 * up}'s broker started with tokens: user {@code caplab}, a read-and-write token as password), else PLAINTEXT.
 * Prefer the environment for the password: a command line is visible to every local user.
 */
public final class KafkaLoginOptions {

    @Option(names = "--kafka-user", defaultValue = "${env:" + KafkaClientSecurity.ENV_USER + ":-}", paramLabel = "USER",
            description = "Kafka SASL/PLAIN user (env CAPLAB_KAFKA_USER); none: PLAINTEXT, no authentication.")
    String user;

    @Option(names = "--kafka-password", defaultValue = "${env:" + KafkaClientSecurity.ENV_PASSWORD + ":-}", paramLabel = "PASSWORD",
            description = "Kafka SASL/PLAIN password (env CAPLAB_KAFKA_PASSWORD, preferred over this option).")
    String password;

    /** The login these options name; fails when only one of user and password is given. */
    public KafkaClientSecurity security() {
        return new KafkaClientSecurity(user, password);
    }
}
