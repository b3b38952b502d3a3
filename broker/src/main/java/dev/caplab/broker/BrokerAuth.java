package dev.caplab.broker;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Who may use the embedded broker's client listener: anyone who reaches the port ({@link #OPEN}, PLAINTEXT, no
 * authorizer), or only the SASL/PLAIN {@code users} given here, each with its own ACLs under Kafka's standard
 * authorizer. The broker itself logs in as {@link #BROKER_USER}, the only super user, whose password is drawn at
 * every start and never printed.
 */
public record BrokerAuth(boolean saslRequired, List<KafkaUser> users) {

    /** No authentication: PLAINTEXT, every client that reaches the port may do anything. */
    public static final BrokerAuth OPEN = new BrokerAuth(false, List.of());
    /** The user the broker logs in to itself as (inter-broker and controller traffic): the only super user. */
    public static final String BROKER_USER = "caplab_broker";

    public BrokerAuth {
        users = List.copyOf(users);
        if (!saslRequired && !users.isEmpty()) {
            throw new IllegalArgumentException("Kafka users given but SASL is off: they would not be checked");
        }
        Set<String> names = new HashSet<>();
        for (KafkaUser user : users) {
            if (user.name().equals(BROKER_USER) || !names.add(user.name())) {
                throw new IllegalArgumentException("Kafka user '" + user.name() + "' is given twice or is reserved");
            }
        }
    }

    /** SASL/PLAIN required on the client listener, the standard authorizer on: these users, each with its ACLs. */
    public static BrokerAuth saslPlain(List<KafkaUser> users) {
        return new BrokerAuth(true, users);
    }
}
