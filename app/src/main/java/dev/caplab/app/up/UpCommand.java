package dev.caplab.app.up;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import dev.caplab.app.cli.AccessOptions;
import dev.caplab.app.cli.DefaultSloOptions;
import dev.caplab.app.cli.UntilStopped;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code caplab up}: the whole pipeline in one JVM on the embedded default, until Ctrl-C. */
@Command(name = "up",
        mixinStandardHelpOptions = true,
        description = "Starts, in one JVM: an in-process Kafka broker (KRaft), the embedded ClickHouse engine (chDB) "
                + "behind ClickHouse's HTTP interface, the streams topology, the ClickHouse sink, HTTP ingest, the query "
                + "API and the web page, then prints where each listens. Ctrl-C stops everything cleanly; data survives "
                + "a restart under --data-dir.")
public final class UpCommand implements Callable<Integer> {

    @Option(names = "--data-dir", defaultValue = "./.caplab", paramLabel = "DIR",
            description = "Where Kafka's log and ClickHouse's data live (default: ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(names = {"--host", "--bind"}, defaultValue = "127.0.0.1", paramLabel = "ADDR",
            description = "Address the web page, API and ClickHouse listeners bind to; loopback by default. Any "
                    + "other address exposes them to the network and needs a token (refused without). Kafka binds it only with --token "
                    + "(SASL_SSL with a self-signed certificate in <data-dir>/kafka-tls, and ACLs); without tokens "
                    + "Kafka stays on loopback (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--http-port", defaultValue = "8080", paramLabel = "PORT",
            description = "Web page, query API and HTTP ingest (/write, /api/v1/events) (default: ${DEFAULT-VALUE}).")
    int httpPort;

    @Option(names = "--clickhouse-port", defaultValue = "8123", paramLabel = "PORT",
            description = "ClickHouse HTTP interface of the embedded engine. Others than caplab itself only read: one "
                    + "SELECT, SHOW, DESCRIBE or EXPLAIN at a time, no file()/url(), capped time, memory and result "
                    + "size (default: ${DEFAULT-VALUE}).")
    int clickhousePort;

    @Option(names = "--kafka-port", defaultValue = "9092", paramLabel = "PORT",
            description = "Kafka bootstrap port of the in-process broker (default: ${DEFAULT-VALUE}). With --token it "
                    + "takes only SASL/PLAIN under ACLs: user caplab, the first write token as password, may write raw "
                    + "topics and read conclusions (CAPLAB_KAFKA_USER/CAPLAB_KAFKA_PASSWORD for the tools); a read "
                    + "token opens nothing; without tokens it is open to every local user.")
    int kafkaPort;

    @Option(names = "--demo", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Load the demo runs from the field reports on first start, through the public ingest API "
                    + "(POST /api/v1/events) and the real pipeline (default: ${DEFAULT-VALUE}; --no-demo skips it).")
    boolean demo;

    @Option(names = "--chdb-lib", paramLabel = "FILE",
            description = "Path of libchdb.so (default: the cache filled by scripts/fetch-chdb.sh).")
    Path chdbLib;

    @Option(names = "--run-idle-end", defaultValue = "2m", paramLabel = "DURATION",
            description = "A run nobody started (no caplab run start) ends after this long without input, closing "
                    + "its last step (default: ${DEFAULT-VALUE}).")
    String runIdleEnd;

    @Option(names = "--background-nice", defaultValue = "" + BackgroundPriority.DEFAULT_NICE, paramLabel = "0-19",
            description = "Linux nice value of the threads that catch up from Kafka (streams, sink, chDB inserts and "
                    + "merges), so that on a saturated machine ingest's acknowledgements come first and the backlog "
                    + "waits in Kafka; 0 runs them at ingest's priority (default: ${DEFAULT-VALUE}).")
    int backgroundNice;

    @Option(names = "--sink-workers", defaultValue = "" + UpSettings.DEFAULT_SINK_WORKERS, paramLabel = "N",
            description = "Sink threads copying Kafka into the engine, in one consumer group so they split the "
                    + "partitions; more copy a backlog faster on more cores (default: ${DEFAULT-VALUE}).")
    int sinkWorkers;

    @Mixin
    DefaultSloOptions defaultSlo;

    @Mixin
    AccessOptions access;

    @Override
    public Integer call() throws Exception {
        List<String> tokens = access.tokenOptions();
        AccessOptions.requireTokensBeyondLoopback(host, tokens);
        UpSettings settings = new UpSettings(dataDir.toAbsolutePath().normalize(), host, httpPort, clickhousePort,
                kafkaPort, demo, chdbLib, tokens, access.allowedOrigins())
                .withRunIdleEnd(dev.caplab.app.cli.StepCommand.Durations.parse(runIdleEnd))
                .withBackgroundNice(backgroundNice)
                .withSinkWorkers(sinkWorkers)
                .withDefaultRules(defaultSlo.rules());
        EmbeddedStack stack = EmbeddedStack.start(settings, System.out);
        // A role that dies on its own (Streams in ERROR, the sink thread stopped) ends the process with exit code 1.
        return UntilStopped.awaitWhileUp("caplab", stack::roleStatuses, null, stack);
    }
}
