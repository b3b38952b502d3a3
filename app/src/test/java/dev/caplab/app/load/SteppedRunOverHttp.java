package dev.caplab.app.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Locale;

/**
 * A stepped run with a known answer, sent as a user's load generator would: run start with an SLO rule and step
 * starts through {@code /api/v1/runs}, samples as line protocol through {@code /write}, step ends through
 * {@code /api/v1/events} (the only lifecycle endpoint taking the end time, so event time stays the run's own),
 * run end through {@code /api/v1/runs/{id}/end}. Users = 2, 4, …, 16; host CPU = 0.35 + 0.05·users cores up to 10
 * users, then a cliff; {@code http_req_duration} 120 ms until step 5, 900 ms from it, against
 * {@code p95(http_req_duration)<=500}: steps 0-4 pass, 5-7 fail, so the max stable load is 10 users and the first
 * failing 12. One sample per metric per second, 10 s of idle baseline, 30 s steps with 5 s warm-up.
 */
public final class SteppedRunOverHttp {

    public static final int STEPS = 8;
    public static final int FIRST_FAILING_STEP = 5;
    private static final int BASELINE_SECONDS = 10;
    private static final int STEP_SECONDS = 30;

    private SteppedRunOverHttp() {
    }

    /** Users at step {@code index}. */
    public static double users(int index) {
        return 2.0 * (index + 1);
    }

    /** Samples the run writes through /write. */
    public static long samples() {
        return BASELINE_SECONDS + (long) STEPS * STEP_SECONDS * 2;
    }

    /** Sends the whole run for {@code runId} starting at {@code start}; every request must be accepted. */
    public static void send(HttpClient http, URI base, String runId, Instant start, String authorization)
            throws java.io.IOException, InterruptedException {
        post(http, base.resolve("/api/v1/runs"), String.format(Locale.ROOT, "{\"runId\":\"%s\",\"sut\":\"soak-sut\","
                + "\"tool\":\"k6\",\"slo\":[\"p95(http_req_duration)<=500\"],\"loadExpression\":\"users\","
                + "\"startedAt\":\"%s\"}", runId, start), 201, authorization, runId + " start");
        URI write = base.resolve("/write?db=" + runId + "&precision=s");
        StringBuilder baseline = new StringBuilder();
        for (int s = 0; s < BASELINE_SECONDS; s++) {
            baseline.append(line("cpu.cores", "host", 0.05, start.getEpochSecond() + s));
        }
        post(http, write, baseline.toString(), 204, authorization, runId + " baseline");
        for (int step = 0; step < STEPS; step++) {
            Instant stepStart = start.plusSeconds(BASELINE_SECONDS + (long) step * STEP_SECONDS);
            post(http, base.resolve("/api/v1/runs/" + runId + "/steps"), String.format(Locale.ROOT,
                    "{\"index\":%d,\"load\":{\"users\":%s},\"warmupSeconds\":5,\"startedAt\":\"%s\"}", step,
                    users(step), stepStart), 202, authorization, runId + " step " + step + " start");
            StringBuilder lines = new StringBuilder();
            for (int k = 0; k < STEP_SECONDS; k++) {
                long t = stepStart.getEpochSecond() + k;
                double wobble = (k % 3 - 1) * 0.01;
                lines.append(line("cpu.cores", "host", cores(step) + wobble, t));
                lines.append(line("http_req_duration", "client", step < FIRST_FAILING_STEP ? 120 : 900, t));
            }
            post(http, write, lines.toString(), 204, authorization, runId + " step " + step + " samples");
            post(http, base.resolve("/api/v1/events"), String.format(Locale.ROOT, "{\"runId\":\"%s\",\"events\":"
                    + "[{\"type\":\"step_ended\",\"index\":%d,\"endedAt\":\"%s\"}]}", runId, step,
                    stepStart.plusSeconds(STEP_SECONDS)), 202, authorization, runId + " step " + step + " end");
        }
        // every sample sent and acknowledged, as a load generator that is done says: the last step closes at once
        post(http, base.resolve("/api/v1/runs/" + runId + "/end"), String.format(Locale.ROOT,
                "{\"endedAt\":\"%s\",\"allSamplesSent\":true}",
                start.plusSeconds(BASELINE_SECONDS + (long) STEPS * STEP_SECONDS)), 202, authorization, runId + " end");
    }

    private static double cores(int step) {
        double users = users(step);
        return users <= 10 ? 0.35 + 0.05 * users : 0.9 + 0.35 * (users - 10);
    }

    private static String line(String metric, String source, double value, long epochSecond) {
        return String.format(Locale.ROOT, "%s,source=%s value=%s %d\n", metric, source, value, epochSecond);
    }

    private static void post(HttpClient http, URI uri, String body, int expectedStatus, String authorization,
            String what) throws java.io.IOException, InterruptedException {
        WriteClients.post(http, uri, body.getBytes(StandardCharsets.UTF_8),
                body.startsWith("{") ? "application/json" : "text/plain", authorization, expectedStatus, what);
    }
}
