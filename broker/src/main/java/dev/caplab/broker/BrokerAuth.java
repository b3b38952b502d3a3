package dev.caplab.broker;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Who may use the embedded broker's client listener: anyone who reaches the port ({@link #OPEN}, PLAINTEXT), or
 * only SASL/PLAIN users — caplab's own roles (an internal user the broker makes up at start) and the
 * {@code externalUsers} given here, e.g. for xk6-kafka or a remote {@code caplab streams}.
 */
public record BrokerAuth(boolean saslRequired, List<KafkaClientSecurity> externalUsers) {

    /** No authentication: PLAINTEXT, every client that reaches the port is accepted. */
    public static final BrokerAuth OPEN = new BrokerAuth(false, List.of());
    /** The user caplab's own roles and the broker itself log in as; its password is random per start. */
    public static final String INTERNAL_USER = "caplab_internal";

    public BrokerAuth {
        externalUsers = List.copyOf(externalUsers);
        if (!saslRequired && !externalUsers.isEmpty()) {
            throw new IllegalArgumentException("Kafka users given but SASL is off: they would not be checked");
        }
        Set<String> names = new HashSet<>();
        for (KafkaClientSecurity user : externalUsers) {
            if (!user.authenticates()) {
                throw new IllegalArgumentException("an external Kafka user needs a name and a password");
            }
            if (user.user().equals(INTERNAL_USER) || !names.add(user.user())) {
                throw new IllegalArgumentException("Kafka user '" + user.user() + "' is given twice or is reserved");
            }
        }
    }

    /** SASL/PLAIN required on the client listener; the internal user plus these. */
    public static BrokerAuth saslPlain(List<KafkaClientSecurity> externalUsers) {
        return new BrokerAuth(true, externalUsers);
    }
}
