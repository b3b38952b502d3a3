package dev.caplab.demo;

import dev.caplab.schema.vocabulary.MetricNames;
import static dev.caplab.demo.DemoEvents.labels;

import dev.caplab.schema.event.Comparator;
import dev.caplab.schema.event.Environment;
import dev.caplab.schema.event.RunOrigin;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.RunStatus;
import dev.caplab.schema.event.SummaryStats;
import dev.caplab.schema.event.SummaryWindow;
import dev.caplab.schema.event.SystemUnderTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Seed 004: Locust against the backend's public REST and GraphQL endpoints, 400 users spawned at 10/s for 120 s on
 * 4 gunicorn workers. Every request is simulated so that each endpoint's final cumulative percentiles are exactly
 * the published table; written as Locust writes without {@code --csv-full-history}: a cumulative Aggregated row
 * every second (with the user count and current rps), and per-endpoint cumulative rows at the end.
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
    /** Locust's current_rps averages the last 10 seconds (CURRENT_RESPONSE_TIME_PERCENTILE_WINDOW). */
    private static final int RPS_WINDOW_SECONDS = 10;

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

        LocustPercentiles aggregated = new LocustPercentiles();
        List<LocustPercentiles> byEndpoint = new ArrayList<>();
        ENDPOINTS.forEach(e -> byEndpoint.add(new LocustPercentiles()));
        int[] served = new int[ENDPOINTS.size()];
        int next = 0;
        Map<String, String> history = labels("csv", "stats_history", "name", AGGREGATED);
        for (int s = 1; s <= RUN_SECONDS; s++) {
            for (long r = 0; r < perSecond[s - 1]; r++) {
                int e = endpointOfRequest.get(next++);
                long millis = latencies.get(e)[served[e]++];
                aggregated.add(millis);
                byEndpoint.get(e).add(millis);
            }
            Instant at = STARTED.plusSeconds(s);
            if (s == RUN_SECONDS) {
                break; // the last second is reported by the final stats rows below
            }
            double rps = 0;
            for (int w = Math.max(0, s - RPS_WINDOW_SECONDS); w < s; w++) {
                rps += perSecond[w];
            }
            rps /= Math.min(s, RPS_WINDOW_SECONDS);
            run.gauge("locust-csv", at, "locust", MetricNames.LOCUST_USERS, usersAt(s), history);
            run.gauge("locust-csv", at, AGGREGATED, MetricNames.HTTP_REQS_PER_S, rps, history);
            run.summary("locust-csv", at, AGGREGATED, MetricNames.HTTP_DURATION_MS, aggregated.mean(), history,
                    stats(aggregated, s));
        }
        Instant end = STARTED.plusSeconds(RUN_SECONDS);
        for (int e = 0; e < ENDPOINTS.size(); e++) {
            Endpoint endpoint = ENDPOINTS.get(e);
            LocustPercentiles p = byEndpoint.get(e);
            run.summary("locust-csv", end, endpoint.source(), MetricNames.HTTP_DURATION_MS, p.mean(),
                    labels("csv", "stats", "method", endpoint.method(), "name", endpoint.name()), stats(p, RUN_SECONDS));
        }
        run.summary("locust-csv", end, AGGREGATED, MetricNames.HTTP_DURATION_MS, aggregated.mean(),
                labels("csv", "stats", "name", AGGREGATED), stats(aggregated, RUN_SECONDS));
        // Locust writes its final stats as it stops, a moment before the step ends (steps are half-open)
        run.stepEnded(index, end.plusSeconds(1));
        run.end(end.plusSeconds(1), RunStatus.COMPLETED, null);
        return run.build();
    }

    private static int usersAt(int second) {
        return Math.min(USERS, SPAWN_PER_SECOND * second);
    }

    /** Cumulative since start: Locust without --csv-full-history never resets its percentiles. */
    private static SummaryStats stats(LocustPercentiles p, int elapsedSeconds) {
        Map<String, Double> quantiles = new LinkedHashMap<>();
        for (double level : LocustPercentiles.LEVELS) {
            quantiles.put(Double.toString(level), (double) p.percentile(level));
        }
        return new SummaryStats(SummaryWindow.CUMULATIVE, p.count(), elapsedSeconds * 1_000_000L, p.mean(),
                (double) p.min(), (double) p.max(), quantiles);
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
                        "run_time_s", "120", "wait_time_s", "1", "csv_full_history", "false"),
                List.of(DemoEvents.load("users", USERS)),
                List.of(DemoEvents.rule(/* p99 at most 500 ms */ MetricNames.HTTP_DURATION_MS, "p99",
                        Comparator.LE, 500)),
                "users", RunOrigin.DECLARED);
    }
}
