package dev.caplab.app.cli;

import dev.caplab.ingest.lifecycle.LifecycleEvents;
import dev.caplab.ingest.lifecycle.LifecycleRequest;
import dev.caplab.ingest.lifecycle.LoadDimensions;
import dev.caplab.ingest.lifecycle.RunEndRequest;
import dev.caplab.ingest.lifecycle.RunStartRequest;
import dev.caplab.ingest.publish.LifecyclePublisher;
import dev.caplab.ingest.publish.ProducerSettings;
import dev.caplab.schema.event.RunStatus;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.avro.specific.SpecificRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code caplab run start|end}: a run's lifecycle events, published to Kafka ({@code caplab.runs}). */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Start or end a run (lifecycle events on caplab.runs).",
        subcommands = {RunCommand.Start.class, RunCommand.End.class})
public final class RunCommand {

    /** Where Kafka is; shared by the lifecycle commands. */
    public static final class KafkaOptions {

        @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT",
                defaultValue = "${env:CAPLAB_BOOTSTRAP_SERVERS:-127.0.0.1:9092}",
                description = "Kafka bootstrap servers (default: $CAPLAB_BOOTSTRAP_SERVERS or ${DEFAULT-VALUE}).")
        String bootstrapServers;

        @Mixin
        KafkaLoginOptions kafkaLogin;

        /** Publishes the event and waits for Kafka's ack; returns the run id. */
        String publish(LifecycleRequest request, String runId) {
            SpecificRecord event = new LifecycleEvents(Clock.systemUTC()).toEvent(request, runId);
            try (LifecyclePublisher publisher = new LifecyclePublisher(
                    new ProducerSettings(bootstrapServers, "caplab-cli", kafkaLogin.security()))) {
                publisher.publish(event).join();
            }
            return event.get(event.getSchema().getField("runId").pos()).toString();
        }
    }

    /** {@code caplab run start}: prints the run id, so scripts can {@code RUN=$(caplab run start ...)}. */
    @Command(name = "start", mixinStandardHelpOptions = true, description = "Publish RunStarted; prints the run id.")
    static final class Start implements Callable<Integer> {

        @Mixin KafkaOptions kafka;
        @Option(names = "--run-id", description = "Run id (default: <sut>-<yyyyMMdd-HHmmss>-<hex>).") String runId;
        @Option(names = "--sut", required = true, description = "System under test, e.g. livekit.") String sut;
        @Option(names = "--sut-version") String sutVersion;
        @Option(names = "--config-digest", description = "Digest of the SUT's configuration.") String configDigest;
        @Option(names = "--provider", description = "Cloud or hosting provider, e.g. hetzner.") String provider;
        @Option(names = "--region") String region;
        @Option(names = "--tier", description = "Machine tier, e.g. cx22.") String tier;
        @Option(names = "--instance-type") String instanceType;
        @Option(names = "--vcpu") Double vcpu;
        @Option(names = "--memory-bytes") Long memoryBytes;
        @Option(names = "--nominal-egress-mbps") Double nominalEgressMbps;
        @Option(names = "--measured-egress-mbps", description = "e.g. from iperf3; beats the nominal figure.")
        Double measuredEgressMbps;
        @Option(names = "--tool", description = "Load tool, e.g. k6, locust, jmeter.") String tool;
        @Option(names = "--label", paramLabel = "KEY=VALUE", description = "Repeatable.") Map<String, String> labels =
                new LinkedHashMap<>();
        @Option(names = "--slo", paramLabel = "RULE", description = "Repeatable, e.g. 'p95(http_req_duration)<=500'.")
        List<String> slo = new ArrayList<>();
        @Option(names = "--load-expression", description = "The fit's x from load dimensions, e.g. "
                + "'subscribers*(publishers-1)' (default: load).") String loadExpression;
        @Option(names = "--planned-step", paramLabel = "DIMS", description = "Repeatable, e.g. users=100.")
        List<String> plannedSteps = new ArrayList<>();

        @Override
        public Integer call() {
            RunStartRequest request = new RunStartRequest(runId, sut, sutVersion, configDigest, provider, region, tier,
                    instanceType, vcpu, memoryBytes, nominalEgressMbps, measuredEgressMbps, tool, labels,
                    plannedSteps.stream().map(LoadDimensions::parse).toList(), slo, loadExpression, null);
            System.out.println(kafka.publish(request, null));
            return 0;
        }
    }

    /** {@code caplab run end}. */
    @Command(name = "end", mixinStandardHelpOptions = true, description = "Publish RunEnded.")
    static final class End implements Callable<Integer> {

        @Mixin KafkaOptions kafka;
        @Option(names = "--run", required = true) String runId;
        @Option(names = "--status", defaultValue = "COMPLETED", description = "COMPLETED, ABORTED or FAILED.")
        RunStatus status;
        @Option(names = "--reason") String reason;
        @Option(names = "--all-samples-sent", description = "Every sample of the run, from every source, has been"
                + " sent and acknowledged: close its last steps at once instead of waiting the grace for stragglers"
                + " (a sample that still comes amends them as late data).")
        boolean allSamplesSent;

        @Override
        public Integer call() {
            kafka.publish(new RunEndRequest(runId, status, reason, null, allSamplesSent), runId);
            return 0;
        }
    }
}
