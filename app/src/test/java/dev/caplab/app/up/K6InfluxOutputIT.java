package dev.caplab.app.up;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.app.load.WriteClients;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A k6 run as k6's InfluxDB v1 output ({@code k6 run --out influxdb=http://caplab/<run>}) writes it to {@code /write}:
 * per request one {@code http_reqs} (value 1), {@code http_req_duration} (ms) and {@code http_req_failed} (1 or 0)
 * point, each tagged with k6's default system tags ({@code expected_response}, {@code method}, {@code name},
 * {@code proto}, {@code scenario}, {@code status}) and the URL as a string field ({@code tagsAsFields} default), once
 * a second {@code vus} and {@code vus_max}; nanosecond timestamps. Requests come from a fixed seed: four endpoints,
 * one of them answering 5xx now and then, at two load levels of {@link #VUS} (steps declared through the API, with
 * warm-up). Each step's requests/s, error ratio and p95 shown by caplab are checked against arithmetic here on the
 * points sent in the step's steady seconds.
 */
class K6InfluxOutputIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String RUN = "k6-influx-output";
    private static final int[] VUS = {5, 10};
    private static final int STEP_SECONDS = 30;
    private static final int WARMUP_SECONDS = 5;
    private static final String BASE_URL = "http://sut.local:8080";
    private static final String[][] ENDPOINTS = {{"GET", "/"}, {"GET", "/news.php"}, {"POST", "/login"},
        {"GET", "/flip_coin.php"}};

    @TempDir
    Path dataDir;

    /** One request as k6 would have measured it. */
    private record Request(long epochNanos, String method, String path, int status, double durationMillis) {
    }

    @Test
    void eachStepsRateErrorsAndP95AreWhatK6Sent() throws Exception {
        Instant t0 = Instant.now().minusSeconds(600).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        try (EmbeddedStack stack = EmbeddedStack.start(new UpSettings(dataDir, "127.0.0.1", 0, 0, 0, false, null,
                List.of()), new PrintStream(new ByteArrayOutputStream()))) {
            post(stack, "/api/v1/runs", String.format(Locale.ROOT, "{\"runId\":\"%s\",\"sut\":\"k6-sut\","
                    + "\"tool\":\"k6\",\"loadExpression\":\"vus\",\"startedAt\":\"%s\"}", RUN, t0), 201);
            SplittableRandom random = new SplittableRandom(29);
            List<List<Request>> sent = new ArrayList<>();
            for (int step = 0; step < VUS.length; step++) {
                Instant start = t0.plusSeconds((long) step * STEP_SECONDS);
                post(stack, "/api/v1/runs/" + RUN + "/steps", String.format(Locale.ROOT,
                        "{\"index\":%d,\"load\":{\"vus\":%d},\"warmupSeconds\":%d,\"startedAt\":\"%s\"}", step,
                        VUS[step], WARMUP_SECONDS, start), 202);
                List<Request> requests = requests(random, start, VUS[step]);
                write(stack, lines(requests, start, VUS[step]));
                post(stack, "/api/v1/events", String.format(Locale.ROOT, "{\"runId\":\"%s\",\"events\":[{\"type\":"
                        + "\"step_ended\",\"index\":%d,\"endedAt\":\"%s\"}]}", RUN, step,
                        start.plusSeconds(STEP_SECONDS)), 202);
                sent.add(requests);
            }
            post(stack, "/api/v1/runs/" + RUN + "/end", String.format(Locale.ROOT, "{\"endedAt\":\"%s\","
                    + "\"allSamplesSent\":true}", t0.plusSeconds((long) VUS.length * STEP_SECONDS)), 202);

            JsonNode steps = awaitSteps(stack);
            for (int step = 0; step < VUS.length; step++) {
                long steadyFrom = t0.plusSeconds((long) step * STEP_SECONDS + WARMUP_SECONDS).getEpochSecond()
                        * 1_000_000_000L;
                List<Request> steady = sent.get(step).stream().filter(r -> r.epochNanos() >= steadyFrom).toList();
                double seconds = STEP_SECONDS - WARMUP_SECONDS;
                double rate = steady.size() / seconds;
                double errors = steady.stream().filter(r -> r.status() >= 500).count() / (double) steady.size();
                double[] durations = steady.stream().mapToDouble(Request::durationMillis).sorted().toArray();
                // the 95th percentile lies between these two order statistics, whatever the interpolation rule
                double rank = 0.95 * (durations.length - 1);
                double p95Low = durations[(int) Math.floor(rank)];
                double p95High = durations[(int) Math.ceil(rank)];
                JsonNode shown = steps.get(step);
                assertThat(shown.get("requestsPerSecond").asDouble()).as("step %d requests/s", step)
                        .isCloseTo(rate, within(rate * 0.01));
                assertThat(shown.get("errorRatio").asDouble()).as("step %d error ratio", step)
                        .isCloseTo(errors, within(1e-9));
                // a DDSketch of 1 % relative accuracy
                assertThat(shown.get("latencyP95Ms").asDouble()).as("step %d p95 ms", step)
                        .isBetween(p95Low * 0.99, p95High * 1.01);
                System.out.printf(Locale.ROOT, "K6InfluxOutputIT step %d (vus %d): caplab %.3f req/s, errors %.5f, "
                        + "p95 %.3f ms; sent %d requests in %.0f steady s = %.3f req/s, errors %.5f, p95 %.3f..%.3f "
                        + "ms%n", step, VUS[step], shown.get("requestsPerSecond").asDouble(),
                        shown.get("errorRatio").asDouble(), shown.get("latencyP95Ms").asDouble(), steady.size(),
                        seconds, rate, errors, p95Low, p95High);
            }
            assertThat(steps.get(1).get("requestsPerSecond").asDouble())
                    .isGreaterThan(steps.get(0).get("requestsPerSecond").asDouble());
        }
    }

    /**
     * A step's requests: each VU runs 1 to 3 requests a second to random endpoints; {@code /flip_coin.php} answers
     * 503 one time in five; durations grow with the load.
     */
    private static List<Request> requests(SplittableRandom random, Instant start, int vus) {
        List<Request> out = new ArrayList<>();
        for (int s = 0; s < STEP_SECONDS; s++) {
            for (int vu = 0; vu < vus; vu++) {
                int n = 1 + random.nextInt(3);
                for (int i = 0; i < n; i++) {
                    String[] endpoint = ENDPOINTS[random.nextInt(ENDPOINTS.length)];
                    int status = endpoint[1].equals("/flip_coin.php") && random.nextInt(5) == 0 ? 503 : 200;
                    double millis = (20 + 4 * vus) * Math.exp(0.5 * random.nextGaussian());
                    long nanos = (start.getEpochSecond() + s) * 1_000_000_000L + random.nextLong(1_000_000_000L);
                    out.add(new Request(nanos, endpoint[0], endpoint[1], status, Math.round(millis * 1000) / 1000.0));
                }
            }
        }
        return out;
    }

    /** The points k6's InfluxDB output writes for these requests, and {@code vus}/{@code vus_max} once a second. */
    private static String lines(List<Request> requests, Instant start, int vus) {
        StringBuilder out = new StringBuilder();
        for (Request r : requests) {
            String tags = String.format(Locale.ROOT, ",expected_response=%s,method=%s,name=%s%s,proto=HTTP/1.1,"
                    + "scenario=default,status=%d", r.status() < 400, r.method(), BASE_URL, r.path(), r.status());
            String url = " url=\"" + BASE_URL + r.path() + "\",value=";
            out.append("http_reqs").append(tags).append(url).append(1).append(' ').append(r.epochNanos()).append('\n');
            out.append("http_req_duration").append(tags).append(url).append(r.durationMillis()).append(' ')
                    .append(r.epochNanos()).append('\n');
            out.append("http_req_failed").append(tags).append(url).append(r.status() >= 400 ? 1 : 0).append(' ')
                    .append(r.epochNanos()).append('\n');
        }
        for (int s = 0; s < STEP_SECONDS; s++) {
            long nanos = (start.getEpochSecond() + s) * 1_000_000_000L;
            out.append("vus value=").append(vus).append(' ').append(nanos).append('\n');
            out.append("vus_max value=").append(vus).append(' ').append(nanos).append('\n');
        }
        return out.toString();
    }

    private static JsonNode awaitSteps(EmbeddedStack stack) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            // 404 until the sink has stored the run's start: the API answers what the store holds
            last = StackHttp.getIfFound(stack, "/api/v1/runs/" + RUN + "/throughput");
            JsonNode steps = last == null ? null : last.get("steps");
            if (steps != null && steps.size() == VUS.length && Arrays.stream(new int[] {0, 1}).allMatch(i ->
                    !steps.get(i).path("requestsPerSecond").isNull() && !steps.get(i).path("latencyP95Ms").isNull()
                            && steps.get(i).has("requestsPerSecond"))) {
                return steps;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("the throughput of " + RUN + " never had both steps: " + last);
    }

    private static void write(EmbeddedStack stack, String body) throws Exception {
        WriteClients.post(HTTP, StackHttp.uri(stack, "/write?db=" + RUN), body.getBytes(StandardCharsets.UTF_8),
                null, null, 204, "k6 points");
    }

    private static void post(EmbeddedStack stack, String path, String json, int expectedStatus) throws Exception {
        WriteClients.post(HTTP, StackHttp.uri(stack, path), json.getBytes(StandardCharsets.UTF_8),
                "application/json", null, expectedStatus, path);
    }
}
