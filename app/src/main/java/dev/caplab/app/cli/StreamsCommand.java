package dev.caplab.app.cli;

import dev.caplab.streams.StreamsRunner;
import dev.caplab.streams.StreamsSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code caplab streams}: the streams role alone, against an existing Kafka cluster, until Ctrl-C. */
@Command(name = "streams", mixinStandardHelpOptions = true,
        description = "Runs the streams topology (step assignment, aggregation, verdicts, live fits), exactly once.")
public final class StreamsCommand implements Callable<Integer> {

    @Option(names = "--bootstrap", required = true, paramLabel = "HOST:PORT", description = "Kafka bootstrap servers.")
    String bootstrap;

    @Option(names = "--state-dir", defaultValue = "./.caplab/streams", paramLabel = "DIR",
            description = "Local state (RocksDB) directory (default: ${DEFAULT-VALUE}).")
    Path stateDir;

    @Option(names = "--application-id", defaultValue = StreamsSettings.DEFAULT_APPLICATION_ID, paramLabel = "ID",
            description = "Kafka Streams application id (default: ${DEFAULT-VALUE}).")
    String applicationId;

    @Override
    public Integer call() throws Exception {
        CountDownLatch stopped = new CountDownLatch(1);
        StreamsRunner runner = StreamsRunner.start(StreamsSettings.of(bootstrap, stateDir)
                .withApplicationId(applicationId));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            runner.close();
            stopped.countDown();
        }));
        runner.awaitRunning(Duration.ofMinutes(2));
        System.out.println("caplab streams running (" + applicationId + ") against " + bootstrap);
        stopped.await();
        return 0;
    }
}
