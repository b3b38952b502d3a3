package dev.caplab.app.up;

import static dev.caplab.app.up.StackHttp.get;
import static dev.caplab.app.up.StackHttp.getText;
import static dev.caplab.app.up.StackHttp.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Two k6-like tests written to one {@code /write?db=k6} with an idle gap between them, as the README's k6 recipe does
 * with every {@code k6 run}: the first becomes run {@code k6}, ended by the idle time; the second begins run
 * {@code k6.2}, each with its own steps and conclusion, and the answer to its first write says so. A sample inside
 * the first run's span, written afterwards, amends {@code k6} as late data; an empty body is answered 204 as InfluxDB
 * 1.x answers it (influxd 1.6.7: {@code 204 No Content}), saying nothing was written; a load level sent as {@code vu}
 * instead of {@code vus} gives a run whose conclusion says it has no load metric. A third test sent with
 * {@code caplab ingest --run k6} after {@code k6.2} ended begins {@code k6.3}, and the command says so; each run's
 * detail and report name the run it continues and the one that continues it.
 */
class NewTestNewRunIT {

    private static final Duration IDLE = Duration.ofSeconds(4);
    private static final Duration PATIENCE = Duration.ofSeconds(90);

    @TempDir
    Path dataDir;

    @Test
    void aTestAfterTheIdleEndIsANewRunAndEveryAnswerSaysWhereItsSamplesWent() throws Exception {
        UpSettings settings = new UpSettings(dataDir, "127.0.0.1", 0, 0, 0, false, null, List.of())
                .withRunIdleEnd(IDLE);
        long t0 = Instant.now().minusSeconds(3_600).getEpochSecond();
        try (EmbeddedStack stack = EmbeddedStack.start(settings, new PrintStream(new ByteArrayOutputStream()))) {
            HttpResponse<String> first = write(stack, "k6", test(t0, "vus", 0.5));
            assertThat(first.statusCode()).isEqualTo(204);
            assertThat(first.headers().firstValue("X-Caplab-Run")).hasValue("k6");
            assertThat(first.headers().allValues("X-Caplab-Warning")).isEmpty();
            HttpResponse<String> typo = write(stack, "typo", test(t0, "vu", 0.5));
            assertThat(typo.statusCode()).isEqualTo(204);

            JsonNode k6 = await(stack, "k6", closed(2));
            assertThat(k6.path("run").path("endedAt").asString()).as("its last sample")
                    .isEqualTo(Instant.ofEpochSecond(t0 + 119).toString());

            // the second test, 5 minutes of event time later, after the first ended idle
            HttpResponse<String> second = write(stack, "k6", test(t0 + 300, "vus", 0.25));
            assertThat(second.statusCode()).isEqualTo(204);
            assertThat(second.headers().firstValue("X-Caplab-Run")).hasValue("k6.2");
            assertThat(second.headers().allValues("X-Caplab-Landing")).containsExactly("k6.2; as=new-run; samples=240");
            assertThat(second.headers().allValues("X-Caplab-Warning")).singleElement().asString()
                    .contains("k6.2", Instant.ofEpochSecond(t0 + 119).toString());

            JsonNode k6b = await(stack, "k6.2", closed(2));
            assertThat(k6b.path("run").path("startedAt").asString()).isEqualTo(Instant.ofEpochSecond(t0 + 300).toString());
            assertThat(k6b.path("run").path("endedAt").asString()).isEqualTo(Instant.ofEpochSecond(t0 + 419).toString());
            // each test's own samples: 0.25 and 0.5 cores at vus 10 and 20 in the second, twice that in the first
            assertThat(cpu(stack, "k6.2", 1)).isEqualTo(0.5);
            assertThat(cpu(stack, "k6", 1)).isEqualTo(1.0);
            assertThat(get(stack, "/api/v1/runs/k6").path("conclusion").path("warnings")).isEmpty();
            assertThat(k6b.path("conclusion").path("warnings")).isEmpty();

            // a third test through `caplab ingest`, after k6.2 ended idle too: the CLI places it as /write does
            Path third = java.nio.file.Files.writeString(dataDir.resolve("third.lp"), test(t0 + 600, "vus", 0.25));
            java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
            PrintStream stderr = System.err;
            int exit;
            System.setErr(new PrintStream(said, true, java.nio.charset.StandardCharsets.UTF_8));
            try {
                exit = dev.caplab.app.CaplabCli.commandLine().execute("ingest", "--format", "influx-line", "--run",
                        "k6", "--file", third.toString(), "-o", "precision=s", "--bootstrap",
                        stack.bootstrapServers());
            } finally {
                System.setErr(stderr);
            }
            String cli = said.toString(java.nio.charset.StandardCharsets.UTF_8);
            stderr.print(cli); // what the user reads, in the test's log
            assertThat(exit).as(cli).isZero();
            assertThat(cli).contains("caplab ingest: 240 samples published to run k6.3, 0 lines rejected")
                    .contains("begin a new run, k6.3", Instant.ofEpochSecond(t0 + 419).toString());
            await(stack, "k6.3", r -> r.path("run").path("startedAt").asString()
                    .equals(Instant.ofEpochSecond(t0 + 600).toString()));

            // each run links to the test before and after it: API, and the report's sentence
            assertThat(get(stack, "/api/v1/runs/k6.2").path("continuation").path("continues").asString())
                    .isEqualTo("k6");
            assertThat(get(stack, "/api/v1/runs/k6.2").path("continuation").path("continuedBy").asString())
                    .isEqualTo("k6.3");
            assertThat(get(stack, "/api/v1/runs/k6").path("continuation").path("continuedBy").asString())
                    .isEqualTo("k6.2");
            assertThat(getText(stack, "/api/v1/runs/k6.2/report")).contains("Continues run k6:",
                    "Continued by run k6.3:");

            // a straggler of the first test: late data of k6, not a third run
            HttpResponse<String> late = write(stack, "k6", "cpu.cores,source=sut value=0.5 " + (t0 + 50) + "\n");
            assertThat(late.statusCode()).isEqualTo(204);
            assertThat(late.headers().allValues("X-Caplab-Landing")).containsExactly("k6; as=late; samples=1");
            assertThat(late.headers().allValues("X-Caplab-Warning")).singleElement().asString()
                    .contains("late data");
            await(stack, "k6", r -> r.path("lateness").path("lateSamples").asInt() == 1);

            HttpResponse<String> empty = write(stack, "k6", "");
            assertThat(empty.statusCode()).as("InfluxDB 1.x: 204 to an empty body").isEqualTo(204);
            assertThat(empty.body()).isEmpty();
            assertThat(empty.headers().allValues("X-Caplab-Warning")).singleElement().asString()
                    .startsWith("nothing written");

            JsonNode typoRun = await(stack, "typo", r -> r.path("run").path("status").asString().equals("COMPLETED")
                    && r.path("conclusion").path("runClosed").asBoolean());
            assertThat(typoRun.path("steps")).isEmpty();
            assertThat(typoRun.path("conclusion").path("warnings")).singleElement().satisfies(w -> {
                assertThat(w.path("kind").asString()).isEqualTo("NO_LOAD_METRIC");
                assertThat(w.path("message").asString()).contains("vus", "loadExpression");
            });
            assertThat(getText(stack, "/api/v1/runs/typo/report")).contains("conclusion-warning",
                    "recognised load metric");
        }
    }

    /** Closed (ended, conclusion of a closed run) with {@code steps} judged steps. */
    private static Predicate<JsonNode> closed(int steps) {
        return r -> r.path("run").path("status").asString().equals("COMPLETED") && r.path("steps").size() == steps
                && r.path("conclusion").path("runClosed").asBoolean();
    }

    /** A k6-like test: {@code load} 10 for seconds [0, 60), 20 for [60, 120); the SUT's CPU {@code cpu} per 10. */
    private static String test(long t0, String load, double cpu) {
        StringBuilder body = new StringBuilder();
        for (int s = 0; s < 120; s++) {
            int vus = s < 60 ? 10 : 20;
            body.append(load).append(",source=k6 value=").append(vus).append(' ').append(t0 + s).append('\n');
            body.append("cpu.cores,source=sut value=").append(cpu * vus / 10).append(' ').append(t0 + s).append('\n');
        }
        return body.toString();
    }

    private static double cpu(EmbeddedStack stack, String run, int step) throws Exception {
        for (JsonNode a : get(stack, "/api/v1/runs/" + run + "/aggregates?metric=cpu.cores")) {
            if (a.path("stepIndex").asInt() == step) {
                return a.path("sustained").asDouble();
            }
        }
        throw new AssertionError("no cpu.cores aggregate for step " + step + " of " + run);
    }

    private static JsonNode await(EmbeddedStack stack, String run, Predicate<JsonNode> done) throws Exception {
        return StackHttp.awaitRun(stack, run, done, PATIENCE, () -> "");
    }
}
