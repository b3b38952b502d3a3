package dev.caplab.app.up;

import dev.caplab.access.ApiToken;
import dev.caplab.access.Scope;
import dev.caplab.app.cli.AccessOptions;
import dev.caplab.broker.BrokerAuth;
import dev.caplab.broker.BrokerSettings;
import dev.caplab.schema.kafka.KafkaClientSecurity;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Who may use {@code caplab up}'s Kafka port, decided from its tokens — the one place the broker gets its users.
 * Without tokens the broker is open (PLAINTEXT) and binds loopback whatever {@code --host} says, so only local users
 * reach it. With tokens it binds {@code --host} and takes only SASL/PLAIN: caplab's own roles (the broker's internal
 * user) and {@value #EXTERNAL_USER} with the first token that has both read and write scopes as password — Kafka has
 * no finer grain here (no ACLs), so only a token that may already read and write everything over HTTP opens it.
 *
 * @param broker how to start the broker
 * @param notice one line for the startup banner saying who can reach the port
 */
public record EmbeddedKafkaAccess(BrokerSettings broker, String notice) {

    /** The SASL/PLAIN user outside tools (xk6-kafka, a remote {@code caplab streams}) log in as. */
    public static final String EXTERNAL_USER = "caplab";
    private static final String LOOPBACK = "127.0.0.1";
    private static final Set<Scope> FULL_ACCESS = Set.of(Scope.READ, Scope.WRITE);

    /** The broker settings and banner line for these {@code caplab up} settings. */
    public static EmbeddedKafkaAccess of(UpSettings settings) {
        List<ApiToken> tokens = AccessOptions.parseTokens(settings.tokens());
        if (tokens.isEmpty()) {
            return new EmbeddedKafkaAccess(new BrokerSettings(settings.dataDir(), LOOPBACK, settings.kafkaPort()),
                    "OPEN: no authentication, every local user of this host can read and write every topic "
                            + "(bound to " + LOOPBACK + " only; start with --token to require SASL/PLAIN)");
        }
        Optional<ApiToken> full = tokens.stream().filter(t -> t.scopes().containsAll(FULL_ACCESS)).findFirst();
        BrokerAuth auth = BrokerAuth.saslPlain(full
                .map(t -> List.of(KafkaClientSecurity.plain(EXTERNAL_USER, t.secret()))).orElse(List.of()));
        String who = full.map(t -> "user " + EXTERNAL_USER + " with token " + t.name() + " (read,write) as password")
                .orElse("caplab's own roles only (no token has both read and write)");
        String wire = LOOPBACK.equals(settings.host()) ? ""
                : "; SASL_PLAINTEXT: the password crosses the network unencrypted, use a trusted network";
        return new EmbeddedKafkaAccess(new BrokerSettings(settings.dataDir(), settings.host(), settings.kafkaPort(),
                auth), "SASL/PLAIN required: " + who + wire);
    }
}
