package dev.caplab.app.cli;

import dev.caplab.ingest.lifecycle.LoadDimensions;
import dev.caplab.ingest.lifecycle.StepEndRequest;
import dev.caplab.ingest.lifecycle.StepStartRequest;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code caplab step}: starts a step at a load ({@code --load publishers=10,subscribers=10}), or ends it ({@code --end}). */
@Command(name = "step", mixinStandardHelpOptions = true,
        description = "Publish StepStarted (with --load) or StepEnded (with --end) for a run.")
public final class StepCommand implements Callable<Integer> {

    @Mixin RunCommand.KafkaOptions kafka;
    @Option(names = "--run", required = true) String runId;
    @Option(names = "--index", required = true, description = "Step index, from 0.") int index;
    @Option(names = "--load", paramLabel = "DIMS", description = "Load dimensions, e.g. users=400.") String load;
    @Option(names = "--warmup", defaultValue = "0s", description = "Warm-up excluded from sustained figures, e.g. 20s.")
    String warmup;
    @Option(names = "--end", description = "End the step instead of starting it.") boolean end;

    @Override
    public Integer call() throws InterruptedException {
        if (end) {
            kafka.publish(new StepEndRequest(runId, index, null), runId);
        } else {
            if (load == null) {
                throw new IllegalArgumentException("--load is required to start a step (or give --end)");
            }
            double warmupSeconds = Durations.parse(warmup).toMillis() / 1000.0;
            kafka.publish(new StepStartRequest(runId, index, LoadDimensions.parse(load), warmupSeconds, null), runId);
        }
        return 0;
    }

    /** Durations as users write them: 120s, 2m, 500ms, 1h, or ISO-8601 (PT2M). */
    public static final class Durations {

        private Durations() {
        }

        public static Duration parse(String text) {
            String t = text.strip().toLowerCase(java.util.Locale.ROOT);
            try {
                if (t.startsWith("pt")) {
                    return Duration.parse(t.toUpperCase(java.util.Locale.ROOT));
                }
                if (t.endsWith("ms")) {
                    return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
                }
                long n = Long.parseLong(t.substring(0, t.length() - 1));
                return switch (t.charAt(t.length() - 1)) {
                    case 's' -> Duration.ofSeconds(n);
                    case 'm' -> Duration.ofMinutes(n);
                    case 'h' -> Duration.ofHours(n);
                    default -> throw new IllegalArgumentException("unit");
                };
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("'" + text + "' is not a duration; write e.g. 120s, 2m, 500ms");
            }
        }
    }
}
