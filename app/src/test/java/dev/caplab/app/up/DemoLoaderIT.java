package dev.caplab.app.up;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.broker.CommittedRecords;
import dev.caplab.demo.DemoLedger;
import dev.caplab.demo.DemoLoadException;
import dev.caplab.demo.DemoLoadReport;
import dev.caplab.demo.DemoLoader;
import dev.caplab.demo.DemoRun;
import dev.caplab.demo.DemoRuns;
import dev.caplab.demo.IngestTarget;
import dev.caplab.schema.event.RunOrigin;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code caplab up --token …} with the demo: the demo goes in through {@code POST /api/v1/events} with a token of its
 * own, exactly its events arrive on the topics, and loading again — with the ledger, or without it once the query
 * API lists the runs — sends nothing twice. A read-only token cannot load it.
 */
class DemoLoaderIT {

    private static final String WRITER = "demo-it-writer-0123456789";
    private static final String READER = "demo-it-reader-0123456789";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void loadsEveryRunOnceOverTheIngestApiAndEveryEventReadsBack() throws Exception {
        Path dataDir = Files.createDirectories(dir.resolve("data"));
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        List<DemoRun> runs = DemoRuns.all();
        try (EmbeddedStack stack = EmbeddedStack.start(new UpSettings(dataDir, "127.0.0.1", 0, 0, 0, true, null,
                List.of(WRITER + "=read,write", READER + "=read")),
                new PrintStream(printed, true, StandardCharsets.UTF_8))) {
            assertThat(printed.toString(StandardCharsets.UTF_8))
                    .contains("demo data loaded through /api/v1/events: " + runs.size() + " runs");

            // the same data directory: its ledger names every run, so a second loader (a restart) sends nothing
            DemoLoadReport again = new DemoLoader(target(stack, WRITER), DemoLedger.in(dataDir)).load();
            assertThat(again.loadedRunIds()).isEmpty();
            assertThat(again.alreadyPresentRunIds()).containsExactlyElementsOf(DemoRuns.runIds());

            // without the ledger, the runs the query API lists are skipped too (once the sink stored them)
            for (String runId : DemoRuns.runIds()) {
                awaitListed(stack, runId);
            }
            Path otherDir = Files.createDirectories(dir.resolve("elsewhere"));
            DemoLoadReport fresh = new DemoLoader(target(stack, WRITER), DemoLedger.in(otherDir)).load();
            assertThat(fresh.loadedRunIds()).isEmpty();
            assertThat(fresh.alreadyPresentRunIds()).containsExactlyElementsOf(DemoRuns.runIds());

            // a read-only token may ask which runs exist but not ingest: the first unknown run is refused with 403
            DemoRun renamed = new DemoRun("demo-it-unknown", runs.get(0).events().stream()
                    .map(e -> withRunId(e, "demo-it-unknown")).toList());
            assertThatThrownBy(() -> new DemoLoader(target(stack, READER), DemoLedger.in(otherDir))
                    .load(List.of(renamed)))
                    .isInstanceOf(DemoLoadException.class)
                    .hasMessageContaining("POST /api/v1/events answered 403")
                    .hasMessageContaining("lacks the 'write' scope");

            // the raw topics as the sink reads them: a write token's tools user may write them, not read them
            KafkaClientSecurity login = stack.kafkaLogins().sink();
            Map<String, List<SpecificRecord>> lifecycle = readCommitted(stack, login, TopicCatalog.RUNS);
            Map<String, List<SpecificRecord>> batches = readCommitted(stack, login, TopicCatalog.SAMPLES);
            assertThat(lifecycle.keySet()).containsExactlyInAnyOrderElementsOf(DemoRuns.runIds());
            for (DemoRun run : runs) {
                assertThat(lifecycle.get(run.runId())).as(run.runId()).containsExactlyElementsOf(run.lifecycle());
                List<Sample> arrived = batches.get(run.runId()).stream()
                        .flatMap(b -> ((SampleBatch) b).getSamples().stream()).toList();
                assertThat(arrived).as(run.runId()).containsExactlyElementsOf(run.samples());
            }
        }
    }

    private static IngestTarget target(EmbeddedStack stack, String token) {
        return new IngestTarget(URI.create("http://127.0.0.1:" + stack.httpPort() + "/"), Optional.of(token));
    }

    private static void awaitListed(EmbeddedStack stack, String runId) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < deadline) {
            HttpResponse<Void> answer = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + stack.httpPort() + "/api/v1/runs/" + runId)).header("Authorization", "Bearer " + READER)
                    .GET().build(), HttpResponse.BodyHandlers.discarding());
            if (answer.statusCode() == 200) {
                return;
            }
            Thread.sleep(500);
        }
        throw new AssertionError("run " + runId + " not listed by the query API within 3 minutes");
    }

    private static SpecificRecord withRunId(SpecificRecord event, String runId) {
        int field = event.getSchema().getField("runId").pos();
        SpecificRecord copy = (SpecificRecord) SpecificData.get().deepCopy(event.getSchema(), event);
        copy.put(field, runId);
        return copy;
    }

    /** Every committed value of a topic, decoded, grouped by key in offset order (one run = one partition). */
    private static Map<String, List<SpecificRecord>> readCommitted(EmbeddedStack stack, KafkaClientSecurity login,
            String topic) {
        Map<String, List<SpecificRecord>> byKey = new LinkedHashMap<>();
        for (ConsumerRecord<String, byte[]> r : CommittedRecords.read(stack.bootstrapServers(), login, topic,
                Duration.ofSeconds(60))) {
            SpecificRecord value = topic.equals(TopicCatalog.SAMPLES)
                    ? EventSerdes.sampleBatch().deserialize(topic, r.value())
                    : EventSerdes.lifecycle().deserialize(topic, r.value());
            // streams may infer a start when a run's samples reach it before its RunStarted; the declared one wins
            if (value instanceof RunStarted started && started.getOrigin() == RunOrigin.INFERRED) {
                continue;
            }
            byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(value);
        }
        return byKey;
    }
}
