package dev.caplab.app.cli;

import dev.caplab.streams.StreamsRunner;
import dev.caplab.streams.StreamsSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code caplab streams}: the streams role alone, against an existing Kafka cluster, until Ctrl-C. */
@Command(name = "streams", mixinStandardHelpOptions = true,
        description = "Runs the streams topology (step assignment, aggregation, verdicts, live fits), exactly once.")
public final class StreamsCommand implements Callable<Integer> {

    @Option(names = "--bootstrap", defaultValue = ExternalOptions.BOOTSTRAP_DEFAULT, paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers (env CAPLAB_BOOTSTRAP; default: ${DEFAULT-VALUE}).")
    String bootstrap;

    @Mixin
    KafkaLoginOptions kafkaLogin;

    @Option(names = "--state-dir", defaultValue = "./.caplab/streams", paramLabel = "DIR",
            description = "Local state (RocksDB) directory (default: ${DEFAULT-VALUE}).")
    Path stateDir;

    @Option(names = "--application-id", defaultValue = StreamsSettings.DEFAULT_APPLICATION_ID, paramLabel = "ID",
            description = "Kafka Streams application id (default: ${DEFAULT-VALUE}).")
    String applicationId;

    @Option(names = "--run-idle-end", defaultValue = "2m", paramLabel = "DURATION",
            description = "A run nobody started (no caplab run start) ends after this long without input, closing "
                    + "its last step (default: ${DEFAULT-VALUE}).")
    String runIdleEnd;

    @Mixin
    DefaultSloOptions defaultSlo;

    @Option(names = "--health-file", paramLabel = "FILE",
            description = "Writes the role's status there every second (first word UP or DOWN), for a healthcheck.")
    Path healthFile;

    /** Exits 1 (after saying so on stderr) when the Streams client stops on its own (ERROR, NOT_RUNNING). */
    @Override
    public Integer call() throws Exception {
        StreamsSettings settings = StreamsSettings.of(bootstrap, stateDir);
        StreamsRunner runner = StreamsRunner.start(settings.withApplicationId(applicationId)
                .withKafkaSecurity(kafkaLogin.security())
                .withTopology(settings.topology().withRunIdleEnd(StepCommand.Durations.parse(runIdleEnd))
                        .withDefaultRules(defaultSlo.rules())));
        runner.awaitRunning(Duration.ofMinutes(2));
        System.out.println("caplab streams running (" + applicationId + ") against " + bootstrap);
        return UntilStopped.awaitWhileUp("streams", () -> List.of(runner.status()), healthFile, runner);
    }
}
