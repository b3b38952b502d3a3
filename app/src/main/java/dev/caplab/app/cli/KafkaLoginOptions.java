package dev.caplab.app.cli;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * How a role logs in to Kafka, next to its {@code --bootstrap}: SASL/PLAIN when a user is given (for {@code caplab
 * up}'s broker started with tokens: user {@code caplab}, a write token as password), over TLS when the broker's
 * certificate is given, else PLAINTEXT.
 * Prefer the environment for the password: a command line is visible to every local user.
 */
public final class KafkaLoginOptions {

    @Option(names = "--kafka-user", defaultValue = "${env:" + KafkaClientSecurity.ENV_USER + ":-}", paramLabel = "USER",
            description = "Kafka SASL/PLAIN user (env CAPLAB_KAFKA_USER); none: PLAINTEXT, no authentication.")
    String user;

    @Option(names = "--kafka-password", defaultValue = "${env:" + KafkaClientSecurity.ENV_PASSWORD + ":-}", paramLabel = "PASSWORD",
            description = "Kafka SASL/PLAIN password (env CAPLAB_KAFKA_PASSWORD, preferred over this option).")
    String password;

    @Option(names = "--kafka-ca-file", defaultValue = "${env:" + KafkaClientSecurity.ENV_CA_FILE + ":-}", paramLabel = "PEM",
            description = "Certificate (PEM) the broker presents, e.g. caplab up's <data-dir>/kafka-tls/broker-cert.pem "
                    + "beyond loopback (env CAPLAB_KAFKA_CA_FILE): SASL_SSL instead of SASL_PLAINTEXT.")
    String caFile;

    /** The login these options name; fails when only one of user and password is given. */
    public KafkaClientSecurity security() {
        return new KafkaClientSecurity(user, password, caFile == null || caFile.isBlank() ? null : Path.of(caFile));
    }
}
