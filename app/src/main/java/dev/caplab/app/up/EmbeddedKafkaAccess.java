package dev.caplab.app.up;

import dev.caplab.access.ApiToken;
import dev.caplab.access.Scope;
import dev.caplab.app.cli.AccessOptions;
import dev.caplab.broker.BrokerAuth;
import dev.caplab.broker.BrokerSettings;
import dev.caplab.broker.BrokerTls;
import dev.caplab.broker.CaplabAcls;
import dev.caplab.broker.EmbeddedKafkaBroker;
import dev.caplab.broker.KafkaUser;
import dev.caplab.ingest.http.IngestHttpConfiguration;
import dev.caplab.ingest.publish.TransactionalPublisher;
import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.streams.StreamsSettings;
import dev.caplab.sink.SinkSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Who may use {@code caplab up}'s Kafka port and as whom each of its roles logs in, decided from its tokens — the one
 * place the broker gets its users. Without tokens the broker is open (PLAINTEXT, no authorizer) and binds loopback
 * whatever {@code --host} says, so only local users reach it. With tokens it binds {@code --host}, takes only
 * SASL/PLAIN and runs Kafka's standard authorizer: HTTP ingest, Streams and the sink each log in as a user of their
 * own, made at this start with a random password, allowed only what {@link CaplabAcls} grants that role; the tools
 * ({@code caplab ingest}, {@code sample}, {@code run}, {@code stepper}) log in as {@value #EXTERNAL_USER} with the
 * first token that has the write scope, allowed to write raw topics and read run conclusions. A read token opens
 * nothing on Kafka. Beyond loopback the port speaks SASL_SSL with the broker's self-signed certificate, so no password
 * crosses the network in clear.
 *
 * @param broker how to start the broker
 * @param roles how caplab's own roles log in
 * @param notice one line for the startup banner saying who can reach the port
 */
public record EmbeddedKafkaAccess(BrokerSettings broker, RoleLogins roles, String notice) {

    /** The SASL/PLAIN user the command-line tools given a write token log in as. */
    public static final String EXTERNAL_USER = "caplab";
    /** The users caplab's own roles log in as when the broker requires SASL. */
    static final String INGEST_USER = "caplab_ingest";
    static final String STREAMS_USER = "caplab_streams";
    static final String SINK_USER = "caplab_sink";
    private static final String LOOPBACK = "127.0.0.1";

    /** How HTTP ingest (and the health probe beside it), Streams and the sink log in. */
    public record RoleLogins(KafkaClientSecurity ingest, KafkaClientSecurity streams, KafkaClientSecurity sink) {

        /** Every role connects without authentication (an open broker). */
        static final RoleLogins NONE = new RoleLogins(KafkaClientSecurity.NONE, KafkaClientSecurity.NONE,
                KafkaClientSecurity.NONE);

        /** The same logins over SASL_SSL trusting the broker's certificate, when it has one. */
        RoleLogins trusting(Optional<Path> certificate) {
            return certificate.map(c -> new RoleLogins(ingest.trusting(c), streams.trusting(c), sink.trusting(c)))
                    .orElse(this);
        }
    }

    /** The broker settings, role logins and banner line for these {@code caplab up} settings. */
    public static EmbeddedKafkaAccess of(UpSettings settings) {
        List<ApiToken> tokens = AccessOptions.parseTokens(settings.tokens());
        if (tokens.isEmpty()) {
            return new EmbeddedKafkaAccess(new BrokerSettings(settings.dataDir(), LOOPBACK, settings.kafkaPort()),
                    RoleLogins.NONE, "OPEN: no authentication, every local user of this host can read, write and "
                            + "delete every topic (bound to " + LOOPBACK + " only; start with --token to require "
                            + "SASL/PLAIN and ACLs)");
        }
        RoleLogins roles = new RoleLogins(EmbeddedKafkaBroker.randomLogin(INGEST_USER),
                EmbeddedKafkaBroker.randomLogin(STREAMS_USER), EmbeddedKafkaBroker.randomLogin(SINK_USER));
        List<KafkaUser> users = new ArrayList<>(List.of(
                new KafkaUser(roles.ingest(), CaplabAcls.ingest(INGEST_USER,
                        TransactionalPublisher.transactionalIdPrefix(IngestHttpConfiguration.PRODUCER_CLIENT_ID))),
                new KafkaUser(roles.streams(), CaplabAcls.streams(STREAMS_USER,
                        StreamsSettings.DEFAULT_APPLICATION_ID)),
                new KafkaUser(roles.sink(), CaplabAcls.sink(SINK_USER, SinkSettings.DEFAULT_GROUP,
                        SinkSettings.TOPICS))));
        Optional<ApiToken> writer = tokens.stream().filter(t -> t.allows(Scope.WRITE)).findFirst();
        writer.ifPresent(t -> users.add(new KafkaUser(KafkaClientSecurity.plain(EXTERNAL_USER, t.secret()),
                CaplabAcls.tools(EXTERNAL_USER))));
        String who = writer.map(t -> "user " + EXTERNAL_USER + " with token " + t.name()
                        + " as password may write raw topics and read conclusions")
                .orElse("caplab's own roles only (no token has the write scope)");
        BrokerSettings broker = new BrokerSettings(settings.dataDir(), settings.host(), settings.kafkaPort(),
                BrokerAuth.saslPlain(users));
        String wire = broker.tls() ? "; SASL_SSL with a self-signed certificate for " + broker.advertisedHost()
                + ": clients trust " + BrokerTls.certificateIn(broker.tlsDir()) + " (ssl.truststore.type=PEM)" : "";
        return new EmbeddedKafkaAccess(broker, roles, "SASL/PLAIN and ACLs required: " + who + wire);
    }
}
