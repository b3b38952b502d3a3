package dev.caplab.demo;

import dev.caplab.ingest.locust.HistoryMode;
import dev.caplab.ingest.locust.LocustAdapter;
import dev.caplab.ingest.parse.ParseResult;
import dev.caplab.schema.event.Comparator;
import dev.caplab.schema.event.Environment;
import dev.caplab.schema.event.RunOrigin;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.RunStatus;
import dev.caplab.schema.event.SystemUnderTest;
import dev.caplab.schema.vocabulary.MetricNames;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Seed 004: Locust against the backend's public REST and GraphQL endpoints, 400 users spawned at 10/s for 120 s on
 * 4 gunicorn workers. Every request is simulated so that each endpoint's final cumulative percentiles are exactly
 * the published table; written as the files Locust 2.12 writes with {@code --csv --csv-full-history} ({@link LocustCsvWriter}) and read
 * by caplab's own Locust adapter, as {@code caplab ingest --format locust} reads them: every second one row per
 * endpoint and the Aggregated row, with the user count, the cumulative request counters and the percentiles of
 * Locust's last ~10 s; and the final per-endpoint totals of {@code _stats.csv}.
 */
final class LocustBackendRun {

    static final String RUN_ID = "demo-locust-backend-400users";
    static final String AGGREGATED = "Aggregated";

    private static final Instant STARTED = Instant.parse("2026-06-10T12:00:00Z");
    private static final int RUN_SECONDS = 120;
    private static final int USERS = 400;
    private static final int SPAWN_PER_SECOND = 10;
    /** Fastest response; Locust's table does not print the minimum (assumed). */
    private static final double MIN_MILLIS = 4;
    /**
     * Shape of the latency distribution between published percentiles, per segment (min→50 %, 50→66 %, …,
     * 99.99→100 %): value = lower + (upper − lower)·t^k. Chosen so the union of the four endpoints lands near the
     * published Aggregated row (assumed: the report prints percentiles, not the distribution between them).
     */
    private static final double[] SEGMENT_EXPONENTS = {0.35, 0.5, 1, 0.35, 0.35, 1.5, 1, 2, 12, 2, 0.35};
    /** The adapter name the run's sample batches carry, as {@code caplab ingest --format locust} sends them. */
    static final String ADAPTER = LocustAdapter.FORMAT;

    /** One row of the published table: Locust's Type and Name, its percentiles in ms, and # reqs. */
    private record Endpoint(String method, String name, long[] percentilesMillis, int requests) {
        String source() {
            return method + " " + name;
        }
    }

    private static final List<Endpoint> ENDPOINTS = List.of(
            new Endpoint("GET", "/pepeunit/api/v1/instances",
                    new long[] {11, 14, 17, 19, 28, 44, 82, 110, 260, 550, 550}, 9600),
            new Endpoint("GET", "/pepeunit/api/v1/instances/current",
                    new long[] {11, 14, 16, 18, 27, 41, 78, 110, 290, 400, 400}, 9697),
            new Endpoint("POST", "gql:getInstancesRegistries",
                    new long[] {12, 15, 17, 19, 26, 38, 62, 84, 200, 540, 540}, 9614),
            new Endpoint("POST", "gql:getInstancesUrls",
                    new long[] {12, 14, 17, 18, 27, 40, 64, 93, 350, 540, 540}, 9686));

    private LocustBackendRun() {
    }

    static DemoRun build(long seed) {
        SplittableRandom random = new SplittableRandom(seed ^ RUN_ID.hashCode());
        RunRecorder run = new RunRecorder(RUN_ID);
        run.start(runStarted());
        int index = run.stepStarted(STARTED, DemoEvents.load("users", USERS),
                Duration.ofSeconds(USERS / SPAWN_PER_SECOND));
        LocustCsv csv = requests(random);
        Instant end = STARTED.plusSeconds(RUN_SECONDS);
        LocustAdapter adapter = new LocustAdapter(LocustAdapter.DEFAULT_SOURCE, HistoryMode.AUTO, Optional.of(end));
        for (String file : List.of(csv.history(), csv.totals())) {
            ParseResult parsed = adapter.parse(file, end);
            if (parsed.hasErrors()) {
                throw new IllegalStateException("run " + RUN_ID + ": Locust's adapter refused the demo's CSV: "
                        + parsed.errors());
            }
            parsed.samples().forEach(sample -> run.sample(ADAPTER, sample));
        }
        // Locust writes its final stats as it stops, a moment before the step ends (steps are half-open)
        run.stepEnded(index, end.plusSeconds(1));
        run.end(end.plusSeconds(1), RunStatus.COMPLETED, null);
        return run.build();
    }

    /** Locust's two CSV texts for the run: {@code _stats_history.csv} and {@code _stats.csv}. */
    record LocustCsv(String history, String totals) {
    }

    /**
     * Simulates every request (which endpoint, which latency, in which second) and writes what Locust 2.12 writes
     * with {@code --csv --csv-full-history}.
     */
    static LocustCsv requests(SplittableRandom random) {
        // which endpoint each request hits, in time order, and each endpoint's latencies in the order it serves them
        List<Integer> endpointOfRequest = new ArrayList<>();
        List<long[]> latencies = new ArrayList<>();
        for (int e = 0; e < ENDPOINTS.size(); e++) {
            Endpoint endpoint = ENDPOINTS.get(e);
            for (int r = 0; r < endpoint.requests(); r++) {
                endpointOfRequest.add(e);
            }
            long[] sorted = distribution(endpoint);
            shuffle(sorted, random);
            latencies.add(sorted);
        }
        java.util.Collections.shuffle(endpointOfRequest, new java.util.Random(random.nextLong()));

        // users wait 1 s between requests, so requests per second follow the user count
        double[] weights = new double[RUN_SECONDS];
        for (int s = 0; s < RUN_SECONDS; s++) {
            weights[s] = usersAt(s + 1) * (1 + 0.03 * Shapes.noise(random));
        }
        long[] perSecond = Shapes.apportion(weights, endpointOfRequest.size());
        // second k of the run, [k, k + 1): each endpoint's latencies served in it
        List<List<List<Long>>> served = new ArrayList<>();
        int[] next = new int[ENDPOINTS.size()];
        int request = 0;
        for (int k = 0; k < RUN_SECONDS; k++) {
            List<List<Long>> second = new ArrayList<>();
            ENDPOINTS.forEach(e -> second.add(new ArrayList<>()));
            for (long r = 0; r < perSecond[k]; r++) {
                int e = endpointOfRequest.get(request++);
                second.get(e).add(latencies.get(e)[next[e]++]);
            }
            served.add(second);
        }
        return LocustCsvWriter.write(STARTED, RUN_SECONDS, ENDPOINTS.stream().map(e -> new LocustCsvWriter.Entry(
                e.method(), e.name())).toList(), served, LocustBackendRun::usersAt);
    }

    static int usersAt(int second) {
        return Math.min(USERS, SPAWN_PER_SECOND * second);
    }

    /**
     * N latencies, ascending, whose Locust percentiles are the published ones: the value at index ⌊N·p⌋ is the
     * published p-th percentile, and values between two such anchors follow the segment's shape.
     */
    static long[] distribution(Endpoint endpoint) {
        int n = endpoint.requests();
        long[] values = new long[n];
        int fromIndex = 0;
        double fromValue = MIN_MILLIS;
        for (int j = 0; j < LocustPercentiles.LEVELS.length; j++) {
            int toIndex = (int) Math.min(n - 1, (long) (n * LocustPercentiles.LEVELS[j]));
            long toValue = endpoint.percentilesMillis()[j];
            for (int i = fromIndex; i <= toIndex; i++) {
                double t = toIndex == fromIndex ? 1 : (double) (i - fromIndex) / (toIndex - fromIndex);
                values[i] = LocustPercentiles.rounded(fromValue + (toValue - fromValue)
                        * Math.pow(t, SEGMENT_EXPONENTS[j]));
            }
            fromIndex = toIndex;
            fromValue = toValue;
        }
        return values;
    }

    private static void shuffle(long[] values, SplittableRandom random) {
        for (int i = values.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long v = values[i];
            values[i] = values[j];
            values[j] = v;
        }
    }

    private static RunStarted runStarted() {
        return new RunStarted(RUN_ID, STARTED, new SystemUnderTest("pepeunit-backend", null, null),
                new Environment("unknown", null, null, "4-gunicorn-workers", null, null, null, null),
                "locust",
                DemoEvents.runLabels("004 backend load tests", "gunicorn_workers", "4", "spawn_rate", "10",
                        "run_time_s", "120", "wait_time_s", "1", "csv_full_history", "true"),
                List.of(DemoEvents.load("users", USERS)),
                List.of(DemoEvents.rule(/* p99 at most 500 ms */ MetricNames.HTTP_DURATION_MS, "p99",
                        Comparator.LE, 500)),
                "users", RunOrigin.DECLARED);
    }
}
