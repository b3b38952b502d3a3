package dev.caplab.app.stepper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.app.CaplabCli;
import dev.caplab.app.MeasuresHost;
import dev.caplab.broker.BrokerSettings;
import dev.caplab.broker.EmbeddedKafkaBroker;
import dev.caplab.schema.sample.Samples;
import dev.caplab.ingest.publish.KafkaSampleSink;
import dev.caplab.ingest.publish.ProducerSettings;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.StreamsRunner;
import dev.caplab.streams.StreamsSettings;
import dev.caplab.streams.TopologySettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code caplab stepper} against a real broker and the real streams topology: the stepper starts the run, runs a
 * tool per step and stops where the run conclusion streams emits to {@code caplab.conclusions} names a first failing
 * step. The tool writes the run and the step's users to a file; a sampler beside it (as a host sampler and the load
 * tool's own output would) publishes, every 250 ms, p95-able latency and the system's CPU, and during the 20-user step
 * a neighbour outside the system under test burning 2.5 cores. Latency is 120 ms except at 20 users (that step's rules
 * fail, but it is contaminated) and from 40 users on (900 ms against {@code p95(...)<=500}). So the conclusion skips
 * step 1, the test goes on, step 3 (40 users) is the first failing step and the max stable load is 30 users.
 */
@MeasuresHost
class StepperIT {

    private static final String SLO = "p95(" + MetricNames.HTTP_DURATION_MS + ")<=500";

    @TempDir
    Path dir;

    @Test
    void stopsAtTheFirstFailingStepOfTheStoredConclusionAndGoesOnPastAContaminatedOne() throws Exception {
        Path current = dir.resolve("current-step");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(BrokerSettings.loopback(dir.resolve("kafka"), 0));
                StreamsRunner streams = StreamsRunner.start(new StreamsSettings(broker.bootstrapServers(),
                        "caplab-stepper-it", dir.resolve("state"), Duration.ofMillis(200), 1,
                        TopologySettings.defaults().withGrace(Duration.ofSeconds(2))));
                KafkaSampleSink samples = new KafkaSampleSink(new ProducerSettings(broker.bootstrapServers(),
                        "stepper-it-sampler"))) {
            streams.awaitRunning(Duration.ofSeconds(60));
            ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
            sampler.scheduleAtFixedRate(() -> sample(current, samples), 0, 250, TimeUnit.MILLISECONDS);
            ByteArrayOutputStream captured = new ByteArrayOutputStream();
            PrintStream stdout = System.out;
            int exit;
            try {
                System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
                exit = CaplabCli.commandLine().execute("stepper", "--bootstrap-servers", broker.bootstrapServers(),
                        "--steps", "10,20,30,40,50", "--hold", "4s", "--warmup", "1s", "--dimension", "users",
                        "--sut", "stepper-it", "--slo", SLO, "--conclusion-timeout", "45s", "--",
                        "sh", "-c", "echo {run} {load} > '" + current + "' && exec sleep 30");
            } finally {
                System.setOut(stdout);
                sampler.shutdownNow();
            }
            String out = captured.toString(StandardCharsets.UTF_8);
            stdout.println(out.lines().filter(l -> l.startsWith("step ") || l.startsWith("run") || l.startsWith("max"))
                    .reduce("", (a, b) -> a + b + "\n"));

            assertThat(exit).as(out).isEqualTo(2);
            assertThat(out).contains("step 1/5  PASSED")
                    .contains("step 2/5  not counted by the run conclusion (contaminated or unjudged), continuing")
                    .contains("step 3/5  PASSED: max stable load x=30 (step index 2); 2 step(s) judged, 1 skipped")
                    .contains("step 4/5  FAILED: max stable load x=30 (step index 2), first failing x=40 (step index 3)")
                    .contains("max stable load: users=30.0")
                    .doesNotContain("step 5/5")
                    .doesNotContain("no run conclusion for it");
        }
    }

    /** One tick of the sampler: the figures of the system at the users the tool last wrote. */
    private static void sample(Path current, KafkaSampleSink sink) {
        try {
            if (!Files.exists(current)) {
                return;
            }
            String[] runAndUsers = Files.readString(current).strip().split(" ");
            if (runAndUsers.length != 2) {
                return; // the tool is writing the file
            }
            String run = runAndUsers[0];
            double users = Double.parseDouble(runAndUsers[1]);
            Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            boolean neighbour = users == 20;
            List<Sample> batch = new java.util.ArrayList<>(List.of(
                    Samples.gauge(at, "client", MetricNames.HTTP_DURATION_MS, neighbour || users >= 40 ? 900 : 120,
                            Map.of()),
                    Samples.gauge(at, "sut-1", MetricNames.CPU_CORES, 0.1 + 0.01 * users, Map.of())));
            if (neighbour) {
                batch.add(Samples.gauge(at, "llm", MetricNames.CPU_CORES, 2.5, Map.of(LabelNames.SUT, "false")));
            }
            sink.publish(run, "stepper-it", batch).join();
        } catch (IOException | RuntimeException e) {
            System.err.println("stepper IT sampler: " + e);
        }
    }
}
