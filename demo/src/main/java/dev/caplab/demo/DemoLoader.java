package dev.caplab.demo;

import dev.caplab.schema.event.SampleBatch;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPOutputStream;
import org.apache.avro.specific.SpecificRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Loads the demo runs into a running caplab the way a user's own client would: each run is one
 * {@code POST /api/v1/events} (gzipped JSON, the token as {@code Authorization: Bearer}), which the ingest API
 * checks whole and commits to Kafka in one transaction, so a run is stored whole or not at all. A run the instance
 * already has is skipped: the {@link DemoLedger} names the runs it accepted, and {@code GET /api/v1/runs/{id}} the
 * runs it stored; loading is idempotent across restarts.
 */
public final class DemoLoader {

    /** The public ingest endpoint the demo goes through. */
    public static final String EVENTS_PATH = "/api/v1/events";
    private static final String RUNS_PATH = "api/v1/runs/";

    private static final Logger log = LoggerFactory.getLogger(DemoLoader.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** The largest run is some 10 MiB of JSON; ingest waits at most 30 s for Kafka's commit. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(3);
    private static final int ANSWER_CHARS_SHOWN = 800;

    private final IngestTarget target;
    private final DemoLedger ledger;
    private final HttpClient http;

    public DemoLoader(IngestTarget target, DemoLedger ledger) {
        this.target = target;
        this.ledger = ledger;
        this.http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
    }

    /** Loads every run of {@link DemoRuns#all()} that the instance does not hold yet. */
    public DemoLoadReport load() {
        return load(DemoRuns.all());
    }

    /** Loads the given runs that the instance does not hold yet, in order, one request per run. */
    public DemoLoadReport load(List<DemoRun> runs) {
        Set<String> recorded = ledger.loaded();
        List<String> loaded = new ArrayList<>();
        List<String> present = new ArrayList<>();
        long lifecycle = 0;
        long samples = 0;
        for (DemoRun run : runs) {
            if (recorded.contains(run.runId()) || stored(run.runId())) {
                present.add(run.runId());
                continue;
            }
            send(run);
            ledger.record(run.runId());
            loaded.add(run.runId());
            for (SpecificRecord event : run.events()) {
                if (event instanceof SampleBatch batch) {
                    samples += batch.getSamples().size();
                } else {
                    lifecycle++;
                }
            }
        }
        DemoLoadReport report = new DemoLoadReport(loaded, present, lifecycle, samples);
        log.info("{}", report.summary());
        return report;
    }

    /** Whether the query API lists the run: 200 yes, 404 no, anything else is an error worth stopping for. */
    private boolean stored(String runId) {
        HttpResponse<String> answer = exchange(runId, authorized(HttpRequest.newBuilder(target.resolve(RUNS_PATH
                + runId))).GET().build());
        return switch (answer.statusCode()) {
            case 200 -> true;
            case 404 -> false;
            default -> throw refused(runId, "GET /" + RUNS_PATH + runId, answer);
        };
    }

    private void send(DemoRun run) {
        HttpRequest request = authorized(HttpRequest.newBuilder(target.resolve(EVENTS_PATH.substring(1))))
                .header("Content-Type", "application/json")
                .header("Content-Encoding", "gzip")
                .POST(HttpRequest.BodyPublishers.ofByteArray(gzippedJson(run)))
                .build();
        HttpResponse<String> answer = exchange(run.runId(), request);
        if (answer.statusCode() != 202) {
            throw refused(run.runId(), "POST " + EVENTS_PATH, answer);
        }
    }

    private HttpRequest.Builder authorized(HttpRequest.Builder request) {
        target.token().ifPresent(t -> request.header("Authorization", "Bearer " + t));
        return request.timeout(REQUEST_TIMEOUT);
    }

    private HttpResponse<String> exchange(String runId, HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new DemoLoadException(target, runId, request.method() + " " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DemoLoadException(target, runId, "interrupted during " + request.method() + " " + request.uri(),
                    e);
        }
    }

    private static byte[] gzippedJson(DemoRun run) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
            JSON.writeValue(gzip, EventsBody.of(run));
        } catch (IOException e) {
            throw new IllegalStateException("gzip into memory cannot fail", e);
        }
        return bytes.toByteArray();
    }

    private DemoLoadException refused(String runId, String call, HttpResponse<String> answer) {
        String body = answer.body() == null ? "" : answer.body();
        return new DemoLoadException(target, runId, call + " answered " + answer.statusCode() + ": "
                + (body.length() > ANSWER_CHARS_SHOWN ? body.substring(0, ANSWER_CHARS_SHOWN) + "…" : body), null);
    }
}
