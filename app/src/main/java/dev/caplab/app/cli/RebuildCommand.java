package dev.caplab.app.cli;

import dev.caplab.streams.StreamsSettings;
import dev.caplab.streams.rebuild.Rebuild;
import dev.caplab.streams.rebuild.RebuildReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code caplab rebuild}: re-derives aggregates, verdicts and fits from the raw topics, e.g. after an analysis change. */
@Command(name = "rebuild", mixinStandardHelpOptions = true,
        description = "Replays caplab.runs and caplab.samples through this version's topology (the settings "
                + "'caplab streams' and 'caplab up' run with) under a fresh application id and a new generation; a "
                + "running sink writes the re-derived rows over the old ones (their versions carry the generation, "
                + "so they win). Meant for runs that have ended.")
public final class RebuildCommand implements Callable<Integer> {

    @Option(names = "--bootstrap", defaultValue = ExternalOptions.BOOTSTRAP_DEFAULT, paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers (env CAPLAB_BOOTSTRAP; default: ${DEFAULT-VALUE}).")
    String bootstrap;

    @Mixin
    KafkaLoginOptions kafkaLogin;

    @Option(names = "--state-dir", defaultValue = "./.caplab/rebuild", paramLabel = "DIR",
            description = "Local state directory for the replay, removed afterwards (default: ${DEFAULT-VALUE}).")
    Path stateDir;

    @Mixin
    DefaultSloOptions defaultSlo;

    @Option(names = "--timeout", defaultValue = "PT1H", description = "Give up after (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Override
    public Integer call() throws Exception {
        // The same settings as the live app (StreamsCommand, EmbeddedStack), so only the code's analysis changed.
        StreamsSettings settings = StreamsSettings.of(bootstrap, stateDir).withKafkaSecurity(kafkaLogin.security());
        RebuildReport report = Rebuild.run(settings.withTopology(settings.topology()
                .withDefaultRules(defaultSlo.rules())), timeout);
        System.out.println(report.describe());
        System.out.println("a running sink ('caplab up' or 'caplab sink') writes these rows over the earlier ones; "
                + "for a fresh database start 'caplab sink' with a new --group against it");
        return 0;
    }
}
