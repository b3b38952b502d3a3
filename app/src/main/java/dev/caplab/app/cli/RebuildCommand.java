package dev.caplab.app.cli;

import dev.caplab.streams.StreamsSettings;
import dev.caplab.streams.rebuild.Rebuild;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code caplab rebuild}: re-derives aggregates, verdicts and fits from the raw topics, e.g. after an analysis change. */
@Command(name = "rebuild", mixinStandardHelpOptions = true,
        description = "Replays caplab.runs and caplab.samples through the topology under a fresh application id; a "
                + "running sink writes the re-derived rows over the old ones (same keys and versions).")
public final class RebuildCommand implements Callable<Integer> {

    @Option(names = "--bootstrap", required = true, paramLabel = "HOST:PORT", description = "Kafka bootstrap servers.")
    String bootstrap;

    @Option(names = "--state-dir", defaultValue = "./.caplab/rebuild", paramLabel = "DIR",
            description = "Local state directory for the replay (default: ${DEFAULT-VALUE}).")
    Path stateDir;

    @Option(names = "--timeout", defaultValue = "PT1H", description = "Give up after (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Override
    public Integer call() throws Exception {
        String id = "caplab-rebuild-" + System.currentTimeMillis();
        Rebuild.run(StreamsSettings.of(bootstrap, stateDir.resolve(id)).withApplicationId(id), timeout);
        System.out.println("rebuild " + id + " replayed the raw topics to their end");
        return 0;
    }
}
