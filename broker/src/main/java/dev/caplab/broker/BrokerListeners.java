package dev.caplab.broker;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * The embedded broker's two listeners — clients on the given address, the controller on loopback — and, when SASL
 * is required, PLAIN on both with its users in {@code listener.name.<l>.plain.sasl.jaas.config} and Kafka's standard
 * authorizer with the broker as its only super user. The broker logs in to itself (inter-broker and controller
 * traffic) as {@link BrokerAuth#BROKER_USER}, whose {@code username}/{@code password} in the same JAAS entry Kafka
 * uses for those connections. With {@link BrokerTls} the client listener speaks SASL_SSL (the broker's connections to
 * itself included, trusting its own certificate); the controller listener stays SASL_PLAINTEXT on loopback.
 */
record BrokerListeners(BrokerAuth auth, KafkaClientSecurity internal, Optional<BrokerTls> tls) {

    static final String CONTROLLER = "CONTROLLER";
    static final String LOOPBACK = "127.0.0.1";
    /** Kafka's ACL authorizer for KRaft clusters: ACLs live in the metadata log, so they survive a restart. */
    static final String AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";

    BrokerListeners {
        if (auth.saslRequired() != internal.authenticates()) {
            throw new IllegalArgumentException("internal Kafka login " + internal + " does not fit " + auth);
        }
        if (tls.isPresent() && !auth.saslRequired()) {
            throw new IllegalArgumentException("Kafka TLS without SASL: caplab's listener speaks SASL_SSL only");
        }
    }

    /**
     * listeners (clients on {@code host}, which may be a wildcard, told to come back on {@code advertisedHost}),
     * advertised.listeners, protocol map, inter-broker listener and, with SASL, mechanisms, users and the authorizer.
     */
    Properties properties(String host, String advertisedHost, int port, int controllerPort) {
        // Each listener is named after its protocol, so the name says what it accepts.
        String client = (tls.isPresent() ? SecurityProtocol.SASL_SSL
                : auth.saslRequired() ? SecurityProtocol.SASL_PLAINTEXT : SecurityProtocol.PLAINTEXT).name;
        Properties p = new Properties();
        p.put("listeners", client + "://" + host + ":" + port + "," + CONTROLLER + "://" + LOOPBACK + ":"
                + controllerPort);
        p.put("advertised.listeners", client + "://" + advertisedHost + ":" + port);
        // The controller listener is loopback only: SASL without TLS there, whatever the client listener speaks.
        String controller = (auth.saslRequired() ? SecurityProtocol.SASL_PLAINTEXT : SecurityProtocol.PLAINTEXT).name;
        p.put("listener.security.protocol.map", client + ":" + client + "," + CONTROLLER + ":" + controller);
        tls.ifPresent(t -> p.putAll(t.listenerProperties(listenerPrefix(client))));
        p.put("inter.broker.listener.name", client);
        if (auth.saslRequired()) {
            p.put("sasl.enabled.mechanisms", KafkaClientSecurity.MECHANISM);
            p.put("sasl.mechanism.inter.broker.protocol", KafkaClientSecurity.MECHANISM);
            p.put("sasl.mechanism.controller.protocol", KafkaClientSecurity.MECHANISM);
            p.put(jaasKey(client), KafkaClientSecurity.plainJaasConfig(users(auth.users())));
            // Only the broker itself talks to its controller.
            p.put(jaasKey(CONTROLLER), KafkaClientSecurity.plainJaasConfig(users(List.of())));
            // Every request is checked against the ACLs; what no ACL allows is refused, except for the broker.
            p.put("authorizer.class.name", AUTHORIZER);
            p.put("super.users", CaplabAcls.principal(internal.user()));
            p.put("allow.everyone.if.no.acl.found", "false");
        }
        return p;
    }

    private Map<String, String> users(List<KafkaUser> users) {
        Map<String, String> options = new LinkedHashMap<>(internal.loginOptions());
        Stream.concat(Stream.of(internal), users.stream().map(KafkaUser::login))
                .forEach(u -> options.put("user_" + u.user(), u.password()));
        return options;
    }

    private static String jaasKey(String listener) {
        return listenerPrefix(listener) + "plain.sasl.jaas.config";
    }

    private static String listenerPrefix(String listener) {
        return "listener.name." + listener.toLowerCase(Locale.ROOT) + ".";
    }
}
