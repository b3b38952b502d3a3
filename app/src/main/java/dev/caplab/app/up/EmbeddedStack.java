package dev.caplab.app.up;

import com.zaxxer.hikari.HikariDataSource;
import dev.caplab.app.cli.AccessOptions;
import dev.caplab.app.cli.ClickHouseTarget;
import dev.caplab.access.ApiToken;
import dev.caplab.access.Scope;
import dev.caplab.access.TokenAuthenticator;
import dev.caplab.app.web.BrokerProbe;
import dev.caplab.app.web.PipelineHealth;
import dev.caplab.app.web.WebServer;
import dev.caplab.app.web.WebSettings;
import dev.caplab.broker.EmbeddedKafkaBroker;
import dev.caplab.broker.Ports;
import dev.caplab.demo.DemoLedger;
import dev.caplab.demo.DemoLoader;
import dev.caplab.demo.IngestTarget;
import dev.caplab.schema.health.RoleStatus;
import dev.caplab.store.access.EngineInserts;
import dev.caplab.store.engine.ChdbEngine;
import dev.caplab.store.engine.ChdbLibrary;
import dev.caplab.store.http.ClickHouseHttpServer;
import dev.caplab.store.http.Credential;
import dev.caplab.store.http.HttpSettings;
import dev.caplab.store.http.ReaderLimits;
import dev.caplab.store.schema.Migrations;
import dev.caplab.streams.StreamsRunner;
import dev.caplab.streams.StreamsSettings;
import dev.caplab.sink.SinkSettings;
import dev.caplab.sink.SinkWorkers;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Every role of the embedded default, started in dependency order and stopped in reverse. */
public final class EmbeddedStack implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedStack.class);
    /** Name, in access logs, of the token the demo loader sends when the port requires tokens. */
    static final String DEMO_TOKEN_NAME = "caplab-demo-loader";
    /** Name of the read token the SQL endpoint presents to the embedded ClickHouse port. */
    static final String SQL_ENDPOINT_TOKEN_NAME = "caplab-sql-endpoint";

    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private String bootstrapServers;
    private String clickhouseJdbcUrl;
    private ClickHouseTarget internalClickhouse;
    private int httpPort;
    private StreamsRunner streams;
    private SinkWorkers sink;
    private EmbeddedKafkaAccess.RoleLogins kafkaLogins;

    private EmbeddedStack() {
    }

    /** Starts the broker, the store, the processing roles and the web tier; prints where each listens. */
    public static EmbeddedStack start(UpSettings settings, PrintStream out) {
        EmbeddedStack stack = new EmbeddedStack();
        try {
            stack.startAll(settings, out);
            return stack;
        } catch (RuntimeException e) {
            stack.close();
            throw e;
        }
    }

    private void startAll(UpSettings settings, PrintStream out) {
        // Claim the HTTP port first: failing after Kafka and ClickHouse started would waste seconds and confuse.
        Ports.claim("HTTP", settings.host(), settings.httpPort());
        // first, so that its scans see the threads of every role below as they start
        BackgroundPriority.start(settings.backgroundNice()).ifPresent(this::track);
        EmbeddedKafkaAccess kafkaAccess = EmbeddedKafkaAccess.of(settings);
        EmbeddedKafkaBroker broker = track(EmbeddedKafkaBroker.start(kafkaAccess.broker()));
        bootstrapServers = broker.bootstrapServers();
        // Each role below logs in as its own user, allowed only what it needs (nothing when the broker is open).
        kafkaLogins = kafkaAccess.roles().trusting(broker.certificate());

        Path lib = settings.chdbLib() != null ? settings.chdbLib() : ChdbLibrary.locate();
        ChdbEngine engine = track(ChdbEngine.open(lib, settings.dataDir().resolve("clickhouse")));
        String database = Migrations.DEFAULT_DATABASE;
        List<ApiToken> tokens = AccessOptions.parseTokens(settings.tokens());
        // caplab's roles use a credential made for this process only (never printed); the SQL endpoint runs
        // users' SQL, so it is a reader like any other, with a read token of its own.
        Credential internal = Credential.random(HttpSettings.INTERNAL_USER);
        ApiToken sqlEndpoint = ApiToken.random(SQL_ENDPOINT_TOKEN_NAME, Set.of(Scope.READ));
        List<ApiToken> readers = new ArrayList<>(tokens);
        readers.add(sqlEndpoint);
        // the reader password of port 8123 is a token, checked by the same authenticator as the HTTP port's tokens
        TokenAuthenticator readerTokens = new TokenAuthenticator(readers, AccessOptions.anonymousScopes(tokens));
        ClickHouseHttpServer clickhouse = track(ClickHouseHttpServer.startClosedToReaders(engine, HttpSettings.defaults()
                .withHost(settings.host()).withPort(settings.clickhousePort()).withInternal(internal)
                .withReaders(secret -> readerTokens.grants(Scope.READ, secret),
                        readerTokens.grantsAnonymously(Scope.READ))
                .withReaderLimits(ReaderLimits.defaults(database))));
        clickhouseJdbcUrl = clickhouse.jdbcUrl(database);
        ClickHouseTarget target = new ClickHouseTarget(clickhouseJdbcUrl, internal.user(), internal.password());
        internalClickhouse = target;
        target.migrate();
        clickhouse.openToReaders();
        HikariDataSource dataSource = track(target.dataSource());
        StreamsSettings streamsSettings = StreamsSettings.of(bootstrapServers, settings.dataDir().resolve("streams"));
        streams = track(StreamsRunner.start(streamsSettings.withKafkaSecurity(kafkaLogins.streams())
                .withTopology(streamsSettings.topology().withRunIdleEnd(settings.runIdleEnd())
                        .withDefaultRules(settings.defaultRules()))));
        // Raw samples, the volume, go from the sink straight into the engine of this process.
        sink = track(SinkWorkers.start(settings.sinkWorkers(), SinkSettings.of(bootstrapServers)
                .withKafkaSecurity(kafkaLogins.sink()), dataSource, new EngineInserts(engine, database)));
        BrokerProbe brokerProbe = track(new BrokerProbe(bootstrapServers, kafkaLogins.ingest()));

        // The demo goes in through the public ingest API like any client; when the port wants tokens it carries one
        // made for this process only (never printed). Without user tokens the port is open and it needs none.
        Optional<ApiToken> demoToken = settings.demo() && !tokens.isEmpty()
                ? Optional.of(ApiToken.random(DEMO_TOKEN_NAME, Set.of(Scope.READ, Scope.WRITE))) : Optional.empty();
        List<ApiToken> webTokens = new ArrayList<>(tokens);
        demoToken.ifPresent(webTokens::add);
        WebServer web = track(WebServer.start(new WebSettings(settings.host(), settings.httpPort(), bootstrapServers,
                database, URI.create(clickhouse.httpUrl() + "/"), HttpSettings.READER_USER, sqlEndpoint.secret(),
                webTokens, settings.allowedOrigins(), kafkaLogins.ingest(), settings.runIdleEnd()),
                track(target.readOnlyDataSource()),
                PipelineHealth.inProcess(brokerProbe, List.of(streams::status, sink::status))));
        httpPort = web.port();

        out.println("caplab: Kafka (KRaft, in-process)    " + bootstrapServers);
        out.println("caplab: Kafka access                  " + kafkaAccess.notice());
        out.println("caplab: ClickHouse (chDB) HTTP        " + clickhouse.httpUrl() + "  (read-only, "
                + (tokens.isEmpty() ? "no credentials needed" : "user " + HttpSettings.READER_USER
                + " with a read token as password") + ")");
        out.println("caplab: web page and query API        http://" + displayHost(settings.host()) + ":" + httpPort + "/");
        out.println("caplab: ingest                        http://" + displayHost(settings.host()) + ":" + httpPort
                + "/write, /api/v2/write (InfluxDB line protocol), /v1/metrics (OTLP/HTTP), /api/v1/events");
        out.println("caplab: OpenAPI                       http://" + displayHost(settings.host()) + ":" + httpPort
                + "/v3/api-docs");
        out.println("caplab: data directory                " + settings.dataDir());
        if (settings.demo()) {
            IngestTarget self = new IngestTarget(
                    URI.create("http://" + connectHost(settings.host()) + ":" + httpPort + "/"),
                    demoToken.map(ApiToken::secret));
            out.println("caplab: demo data                     "
                    + new DemoLoader(self, DemoLedger.in(settings.dataDir())).load().summary());
        }
        out.println("caplab: up; Ctrl-C stops everything");
    }

    /** The processing roles' status: {@code caplab up} exits non-zero when one stops on its own. */
    public List<RoleStatus> roleStatuses() {
        return List.of(streams.status(), sink.status());
    }

    /** The Streams role, for its metrics (records processed, state-store sizes). */
    public StreamsRunner streams() {
        return streams;
    }

    /** How the roles log in to the broker; for tests that read what the roles read. */
    EmbeddedKafkaAccess.RoleLogins kafkaLogins() {
        return kafkaLogins;
    }

    /** host:port of the in-process Kafka broker. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** JDBC URL of caplab's database on the embedded ClickHouse. */
    public String clickhouseJdbcUrl() {
        return clickhouseJdbcUrl;
    }

    /**
     * caplab's own login to its database, which may read the system tables readers may not ({@code system.parts},
     * {@code system.events}): for in-process tools such as the pipeline bench, never handed out of the process.
     */
    public ClickHouseTarget internalClickhouse() {
        return internalClickhouse;
    }

    /** The HTTP port actually bound. */
    public int httpPort() {
        return httpPort;
    }

    /** Where this process reaches its own HTTP port: loopback when bound to every address. */
    private static String connectHost(String host) {
        String reachable = "0.0.0.0".equals(host) || "::".equals(host) ? "127.0.0.1" : host;
        return reachable.contains(":") ? "[" + reachable + "]" : reachable;
    }

    private static String displayHost(String host) {
        return "127.0.0.1".equals(host) || "0.0.0.0".equals(host) ? "localhost" : host;
    }

    private <T extends AutoCloseable> T track(T role) {
        started.push(role);
        return role;
    }

    /** Stops every started role, newest first; one failing to stop does not keep the others running. */
    @Override
    public void close() {
        while (!started.isEmpty()) {
            AutoCloseable role = started.pop();
            try {
                role.close();
            } catch (Exception e) {
                log.error("failed to stop {}", role.getClass().getSimpleName(), e);
            }
        }
    }
}
