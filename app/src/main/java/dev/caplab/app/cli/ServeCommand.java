package dev.caplab.app.cli;

import com.zaxxer.hikari.HikariDataSource;
import dev.caplab.app.web.BrokerProbe;
import dev.caplab.app.web.PipelineHealth;
import dev.caplab.app.web.WebServer;
import dev.caplab.app.web.WebSettings;
import dev.caplab.streams.StreamsSettings;
import dev.caplab.sink.SinkSettings;
import dev.caplab.access.ApiToken;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code caplab serve}: the HTTP tier alone (ingest, query API, web page) against external Kafka and ClickHouse. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Runs HTTP ingest (/write, /api/v1/events), the query API and the web page against an external "
                + "Kafka cluster and ClickHouse server, until stopped.")
public final class ServeCommand implements Callable<Integer> {

    @Mixin
    ExternalOptions external;

    @Option(names = {"--host", "--bind"}, defaultValue = "127.0.0.1", paramLabel = "ADDR",
            description = "Address to bind (default: ${DEFAULT-VALUE}, loopback). Any other address (0.0.0.0 for "
                    + "every interface) needs a token: without one, serve refuses to start.")
    String host;

    @Option(names = "--http-port", defaultValue = "8080", paramLabel = "PORT", description = "HTTP port (default: ${DEFAULT-VALUE}).")
    int httpPort;

    @Option(names = "--run-idle-end", defaultValue = "2m", paramLabel = "DURATION",
            description = "The streams app's --run-idle-end (default: ${DEFAULT-VALUE}): the live run page says a run "
                    + "its samples started ends this long after its last sample.")
    String runIdleEnd;

    @Mixin
    AccessOptions access;

    @Override
    public Integer call() throws InterruptedException {
        List<ApiToken> tokens = AccessOptions.parseTokens(access.tokenOptions());
        AccessOptions.requireTokensBeyondLoopback(host, tokens);
        // the web tier only reads: its statements run read-only
        HikariDataSource dataSource = external.clickhouse().readOnlyDataSource();
        WebSettings settings = new WebSettings(host, httpPort, external.bootstrap, external.clickhouse().database(),
                external.clickhouse().httpUrl(), external.clickhouse().user(), external.clickhouse().password(),
                tokens, access.allowedOrigins(), external.kafkaLogin.security(), StepCommand.Durations.parse(runIdleEnd));
        // This process cannot see the streams and sink JVMs: health reports their consumer groups' lag instead.
        BrokerProbe broker = new BrokerProbe(external.bootstrap, external.kafkaLogin.security());
        WebServer server = WebServer.start(settings, dataSource, PipelineHealth.distributed(broker,
                StreamsSettings.DEFAULT_APPLICATION_ID, SinkSettings.DEFAULT_GROUP));
        System.out.println("caplab serve: http://" + host + ":" + server.port());
        UntilStopped.await("serve", server, broker, dataSource);
        return 0;
    }
}
