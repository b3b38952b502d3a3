package dev.caplab.app.cli;

import dev.caplab.ingest.lifecycle.LifecycleEvents;
import dev.caplab.ingest.lifecycle.LifecycleRequest;
import dev.caplab.ingest.lifecycle.LoadDimensions;
import dev.caplab.ingest.lifecycle.RunDeletedException;
import dev.caplab.ingest.lifecycle.RunEndRequest;
import dev.caplab.ingest.lifecycle.RunStartRequest;
import dev.caplab.ingest.publish.LifecyclePublisher;
import dev.caplab.ingest.publish.ProducerSettings;
import dev.caplab.ingest.runs.LifecycleWatcher;
import dev.caplab.ingest.runs.RunDirectory;
import dev.caplab.ingest.runs.RunGenerations;
import dev.caplab.schema.event.RunStatus;
import dev.caplab.access.ApiToken;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.avro.specific.SpecificRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code caplab run start|end|delete}: a run's lifecycle events on {@code caplab.runs}; start and end are published to
 * Kafka, delete asks the HTTP port, which knows whether the run exists.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Start, end or delete a run (lifecycle events on caplab.runs).",
        subcommands = {RunCommand.Start.class, RunCommand.End.class, RunCommand.Delete.class})
public final class RunCommand {

    /** Where Kafka is; shared by the lifecycle commands. */
    public static final class KafkaOptions {

        @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT",
                defaultValue = "${env:CAPLAB_BOOTSTRAP_SERVERS:-127.0.0.1:9092}",
                description = "Kafka bootstrap servers (default: $CAPLAB_BOOTSTRAP_SERVERS or ${DEFAULT-VALUE}).")
        String bootstrapServers;

        @Mixin
        KafkaLoginOptions kafkaLogin;

        /**
         * Publishes the event and waits for Kafka's ack; returns the run id. A run a client deleted is refused here as
         * the HTTP port refuses it (this command bypasses the port): an event for it would bring back a run nobody
         * could see.
         */
        String publish(LifecycleRequest request, String runId) throws InterruptedException {
            SpecificRecord event = new LifecycleEvents(Clock.systemUTC()).toEvent(request, runId);
            String run = LifecyclePublisher.runIdOf(event);
            refuseIfDeleted(run);
            try (LifecyclePublisher publisher = new LifecyclePublisher(
                    new ProducerSettings(bootstrapServers, "caplab-cli", kafkaLogin.security()))) {
                publisher.publish(event).join();
            }
            return run;
        }

        /** Reads {@code caplab.runs} as ingest does, up to its end, and refuses the run if a client deleted it. */
        private void refuseIfDeleted(String run) throws InterruptedException {
            RunDirectory directory = new RunDirectory();
            try (LifecycleWatcher watcher = new LifecycleWatcher(bootstrapServers, kafkaLogin.security(), directory)) {
                directory.awaitLoaded(RunGenerations.LOAD_WAIT);
            }
            try {
                directory.refuseIfDeleted(run);
            } catch (RunDeletedException e) {
                throw new IllegalStateException(e.getMessage() + ": it takes no more lifecycle events; start a new"
                        + " run under a new run id", e);
            }
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
        public Integer call() throws InterruptedException {
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
        public Integer call() throws InterruptedException {
            kafka.publish(new RunEndRequest(runId, status, reason, null, allSamplesSent), runId);
            return 0;
        }
    }

    /**
     * {@code caplab run delete RUN}: {@code DELETE /api/v1/runs/RUN} on a running caplab, which publishes RunDeleted
     * after checking the run exists (HTTP, not Kafka, so an unknown or already deleted run is said so, with when).
     */
    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a run: it leaves every list,"
            + " table, comparison, history, plan and report, also after a rebuild (RunDeleted on caplab.runs; its rows"
            + " are erased from ClickHouse, its events stay in Kafka). Samples sent to its id afterwards begin a new"
            + " run, <id>.2.")
    static final class Delete implements Callable<Integer> {

        @Spec
        CommandSpec spec;
        @Parameters(paramLabel = "RUN", description = "the run id") String runId;
        @Option(names = "--reason", description = "Why, kept with the deletion.") String reason;
        @Option(names = "--url", paramLabel = "URL", defaultValue = "${env:CAPLAB_URL:-http://127.0.0.1:8080}",
                description = "the caplab HTTP port (default: $CAPLAB_URL, else ${DEFAULT-VALUE})")
        String url;
        @Option(names = "--token", paramLabel = "SECRET", defaultValue = "${env:CAPLAB_TOKEN}",
                description = "a token with the write scope, sent as Authorization: Bearer (default: $CAPLAB_TOKEN,"
                        + " preferred: a command line is visible to every local user; SECRET or SECRET=SCOPES);"
                        + " needed when caplab runs with tokens")
        String token;

        @Override
        public Integer call() throws IOException {
            String query = reason == null ? "" : "?reason=" + URLEncoder.encode(reason, StandardCharsets.UTF_8);
            URI uri = CaplabHttp.uri(url, "/api/v1/runs/" + URLEncoder.encode(runId, StandardCharsets.UTF_8)
                    .replace("+", "%20") + query);
            HttpResponse<byte[]> answer = CaplabHttp.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                    .header("Accept", "application/json").DELETE().build(), ApiToken.clientSecret(token), 202);
            JsonNode deleted = JsonMapper.builder().build().readTree(answer.body());
            PrintWriter out = spec.commandLine().getOut();
            out.printf("deleted run %s at %s%n", runId, deleted.path("deletedAt").asString());
            out.flush();
            return 0;
        }
    }
}
