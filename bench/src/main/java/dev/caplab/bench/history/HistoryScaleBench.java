package dev.caplab.bench.history;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A results repository at scale, used as one is: {@code runs} stepped runs (8 steps of 24 s, 576 samples each: CPU,
 * memory and one request latency a second) of 4 systems × 4 providers × 3 tiers, each sent whole in one
 * {@code POST /api/v1/events} from {@code clients} threads to a running {@code caplab up}; then how fast the runs
 * reach their closed conclusions, and the latency of the reads a person makes on such a repository (runs list with
 * and without filters, compare, history, plans, run detail, report), 20 calls each, p50/p95/max.
 *
 * <p>Usage: {@code HistoryScaleBench <base-url> <runs> <clients> [prefix]}. Runs are named {@code <prefix>-<n>}
 * (default prefix {@code scale}); run it once per fresh data directory, or with a new prefix. With
 * {@code -Dbench.readsOnly=true} it sends nothing and times the reads of runs stored before; {@code -Dbench.run=ID}
 * names the run whose detail and report are read, {@code -Dbench.calls=N} the calls per read. With
 * {@code -Dbench.against=<base-url>} each read is timed on both stacks call by call (which one goes first alternates),
 * for code A/B on copies of one data directory under the same machine load: both figures, their ratio, and whether the
 * two answers were byte for byte the same.
 */
public final class HistoryScaleBench {

    private static final int STEPS = 8;
    private static final int STEP_SECONDS = 24;
    /** Calls per read ({@code -Dbench.calls}, default 20). */
    private static final int CALLS = Integer.getInteger("bench.calls", 20);
    private static final String[] SYSTEMS = {"shop", "search", "media", "chat"};
    private static final String[] PROVIDERS = {"aws", "gcp", "hetzner", "lab"};
    private static final String[] TIERS = {"2vcpu-4gb", "4vcpu-8gb", "8vcpu-16gb"};
    private static final double[] VCPUS = {2, 4, 8};

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final String base;
    private final String prefix;
    /** The stack the reads are compared against ({@code -Dbench.against}), or null. */
    private final String against;

    private HistoryScaleBench(String base, String prefix, String against) {
        this.base = trimmed(base);
        this.prefix = prefix;
        this.against = against == null ? null : trimmed(against);
    }

    private static String trimmed(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: HistoryScaleBench <base-url> <runs> <clients> [prefix]");
            System.exit(2);
        }
        HistoryScaleBench bench = new HistoryScaleBench(args[0], args.length > 3 ? args[3] : "scale",
                System.getProperty("bench.against"));
        bench.run(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
    }

    private void run(int runs, int clients) throws Exception {
        if (!Boolean.getBoolean("bench.readsOnly")) {
            store(runs, clients);
        }
        reads(runs);
    }

    /** Sends the runs and waits until their conclusions are closed (or stand still for 3 min). */
    private void store(int runs, int clients) throws Exception {
        int before = closedConclusions();
        Instant first = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofDays(30));
        AtomicInteger next = new AtomicInteger();
        long start = System.nanoTime();
        try (ExecutorService pool = Executors.newFixedThreadPool(clients)) {
            List<Future<?>> senders = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                senders.add(pool.submit(() -> {
                    for (int i = next.getAndIncrement(); i < runs; i = next.getAndIncrement()) {
                        // runs an hour apart in event time, as a lab running tests all month would have them
                        send(i, first.plusSeconds(3600L * i % (30L * 86400)));
                    }
                    return null;
                }));
            }
            for (Future<?> f : senders) {
                f.get();
            }
        }
        double sentSeconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "sent %,d runs (%,d samples) in %.1f s: %.1f runs/s accepted%n", runs,
                (long) runs * samplesPerRun(), sentSeconds, runs / sentSeconds);
        int closed = before;
        long lastChange = System.nanoTime();
        int lastSeen = -1;
        while (closed - before < runs && System.nanoTime() - lastChange < Duration.ofMinutes(3).toNanos()) {
            Thread.sleep(1000);
            closed = closedConclusions();
            if (closed != lastSeen) {
                lastSeen = closed;
                lastChange = System.nanoTime();
            }
        }
        double concludedSeconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "%,d of %,d runs concluded (closed) %.1f s after the first request: %.1f runs/s%n",
                closed - before, runs, concludedSeconds, (closed - before) / concludedSeconds);
    }

    /**
     * The reads a person makes, each as the web page makes it: the runs list (newest page, filtered, and the filter
     * choices every page loads), compare, history, plans, run detail and report.
     */
    private void reads(int runs) throws Exception {
        String someRun = System.getProperty("bench.run", prefix + "-" + (runs / 2));
        String sut = SYSTEMS[0];
        time("GET runs (newest page)", "GET", "/api/v1/runs", null);
        time("GET runs?sut&tier&provider", "GET", "/api/v1/runs?sut=" + sut + "&tier=" + TIERS[1] + "&provider="
                + PROVIDERS[2], null);
        time("GET runs page (101, sorted)", "GET", "/api/v1/runs?sort=startedAt&order=desc&limit=101&offset=0",
                null);
        time("GET runs?tool&status, page 50", "GET", "/api/v1/runs?tool=k6&status=COMPLETED&limit=101&offset=5000",
                null);
        time("GET run-choices", "GET", "/api/v1/run-choices", null);
        time("GET runs?limit=1000", "GET", "/api/v1/runs?limit=1000", null);
        time("GET compare?sut", "GET", "/api/v1/compare?sut=" + sut, null);
        time("GET history (one cohort)", "GET", "/api/v1/history?sut=" + sut + "&tier=" + TIERS[1]
                + "&tool=k6&loadExpression=users", null);
        time("POST plans (one system)", "POST", "/api/v1/plans",
                "{\"sut\":\"" + sut + "\",\"tiers\":[\"" + String.join("\",\"", TIERS)
                        + "\"],\"profile\":{\"name\":\"peak\",\"load\":20}}");
        time("GET run detail", "GET", "/api/v1/runs/" + someRun, null);
        for (String part : new String[] {"aggregates", "throughput", "live", "timeline", "endpoints"}) {
            time("GET run " + part, "GET", "/api/v1/runs/" + someRun + "/" + part, null);
        }
        time("GET run report", "GET", "/api/v1/runs/" + someRun + "/report", null);
    }

    private static int samplesPerRun() {
        return STEPS * STEP_SECONDS * 3;
    }

    /** One run, whole: start, steps with their samples, end (all samples sent), in one request. */
    private void send(int i, Instant start) throws Exception {
        String run = prefix + "-" + i;
        String sut = SYSTEMS[i % SYSTEMS.length];
        String provider = PROVIDERS[(i / SYSTEMS.length) % PROVIDERS.length];
        int tier = (i / (SYSTEMS.length * PROVIDERS.length)) % TIERS.length;
        // CPU per user shrinks with the tier, grows with the system; a knee at 2 users per vCPU
        double perUser = 0.02 * (1 + i % SYSTEMS.length) / (1 + tier);
        double knee = 2 * VCPUS[tier] * 2;
        StringBuilder events = new StringBuilder();
        StringBuilder samples = new StringBuilder();
        events.append(String.format(Locale.ROOT, "{\"type\":\"run_started\",\"sut\":\"%s\",\"sutVersion\":\"1.%d\","
                        + "\"provider\":\"%s\",\"tier\":\"%s\",\"vcpu\":%s,\"memoryBytes\":%d,\"tool\":\"k6\","
                        + "\"slo\":[\"p95(http_req_duration)<=500\"],\"loadExpression\":\"users\",\"startedAt\":\"%s\"}",
                sut, i / 48 % 5, provider, TIERS[tier], VCPUS[tier], (long) VCPUS[tier] * 2 << 30, start));
        for (int step = 0; step < STEPS; step++) {
            double users = 4.0 * (step + 1);
            Instant stepStart = start.plusSeconds((long) step * STEP_SECONDS);
            events.append(String.format(Locale.ROOT, ",{\"type\":\"step_started\",\"index\":%d,\"load\":{\"users\":%s},"
                    + "\"warmupSeconds\":4,\"startedAt\":\"%s\"}", step, users, stepStart));
            events.append(String.format(Locale.ROOT, ",{\"type\":\"step_ended\",\"index\":%d,\"endedAt\":\"%s\"}",
                    step, stepStart.plusSeconds(STEP_SECONDS)));
            double cores = 0.1 + perUser * Math.min(users, knee) + 3 * perUser * Math.max(0, users - knee);
            double latency = users > 1.2 * knee ? 900 : 120;
            for (int k = 0; k < STEP_SECONDS; k++) {
                Instant t = stepStart.plusSeconds(k);
                double wobble = (k % 3 - 1) * 0.01;
                sample(samples, t, "node", "cpu.cores", "GAUGE", cores + wobble);
                sample(samples, t, "node", "mem.bytes", "GAUGE", 5e8 + 1e7 * users + 1e5 * k);
                sample(samples, t, "client", "http_req_duration", "GAUGE", latency * (1 + wobble));
            }
        }
        events.append(String.format(Locale.ROOT, ",{\"type\":\"run_ended\",\"endedAt\":\"%s\",\"allSamplesSent\":true}",
                start.plusSeconds((long) STEPS * STEP_SECONDS)));
        String body = "{\"runId\":\"" + run + "\",\"adapter\":\"history-scale-bench\",\"events\":[" + events
                + "],\"samples\":[" + samples + "]}";
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/events"))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 202) {
            throw new IllegalStateException(run + ": " + r.statusCode() + " " + r.body());
        }
    }

    private static void sample(StringBuilder out, Instant t, String source, String metric, String kind, double v) {
        if (!out.isEmpty()) {
            out.append(',');
        }
        out.append(String.format(Locale.ROOT, "{\"timestamp\":\"%s\",\"source\":\"%s\",\"metric\":\"%s\","
                + "\"kind\":\"%s\",\"value\":%s}", t, source, metric, kind, v));
    }

    private int closedConclusions() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/sql?format=csv"))
                .header("Content-Type", "text/plain").timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString("SELECT count() FROM run_conclusions FINAL WHERE run_closed"
                        + " AND startsWith(run_id, '" + prefix + "-')")).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("counting conclusions: " + r.statusCode() + " " + r.body());
        }
        // CSV with a header line
        return Integer.parseInt(r.body().strip().lines().reduce((a, b) -> b).orElseThrow().strip());
    }

    private void time(String what, String method, String path, String body) throws Exception {
        if (against != null) {
            compare(what, method, path, body);
            return;
        }
        double[] millis = new double[CALLS];
        HttpResponse<byte[]> r = null;
        for (int i = 0; i < CALLS; i++) {
            long t0 = System.nanoTime();
            r = call(base, method, path, body);
            millis[i] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(millis);
        System.out.printf(Locale.ROOT, "%-30s %3d %,9d B  p50 %7.1f ms  p95 %7.1f ms  max %7.1f ms%n", what,
                r.statusCode(), r.body().length, millis[CALLS / 2], p95(millis), millis[CALLS - 1]);
    }

    /** The read on this stack (B) and the one compared against (A), alternating which is called first. */
    private void compare(String what, String method, String path, String body) throws Exception {
        double[] a = new double[CALLS];
        double[] b = new double[CALLS];
        HttpResponse<byte[]> ra = null;
        HttpResponse<byte[]> rb = null;
        for (int i = 0; i < CALLS; i++) {
            for (int k = 0; k < 2; k++) {
                boolean first = (i + k) % 2 == 0;
                long t0 = System.nanoTime();
                HttpResponse<byte[]> r = call(first ? against : base, method, path, body);
                double ms = (System.nanoTime() - t0) / 1e6;
                if (first) {
                    a[i] = ms;
                    ra = r;
                } else {
                    b[i] = ms;
                    rb = r;
                }
            }
        }
        Arrays.sort(a);
        Arrays.sort(b);
        System.out.printf(Locale.ROOT, "%-30s %3d/%3d %,9d B  A p50 %7.1f p95 %7.1f  B p50 %7.1f p95 %7.1f ms"
                        + "  B/A %.2f %.2f  same answer: %s%n", what, ra.statusCode(), rb.statusCode(),
                rb.body().length, a[CALLS / 2], p95(a), b[CALLS / 2], p95(b), b[CALLS / 2] / a[CALLS / 2],
                p95(b) / p95(a), Arrays.equals(ra.body(), rb.body()) ? "yes" : "NO");
    }

    private static double p95(double[] sorted) {
        return sorted[(int) Math.ceil(0.95 * sorted.length) - 1];
    }

    private HttpResponse<byte[]> call(String stack, String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(stack + path)).timeout(Duration.ofSeconds(60));
        b = body == null ? b.GET() : b.header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }
}
