package dev.caplab.demo;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.IntUnaryOperator;

/**
 * The two files Locust 2.12 writes with {@code --csv PREFIX --csv-full-history}, from every request of a run
 * (locust/stats.py, {@code StatsCSVFileWriter}):
 * <ul>
 *   <li>{@code _stats_history.csv}: at each whole second t of the run, a row per endpoint that has had a request
 *       (sorted by name, then method) and the Aggregated row; the user count; {@code current_rps} (the mean
 *       requests per second over seconds t−13 … t−4, {@code StatsEntry.current_rps}); the percentiles of the
 *       requests since the response-times snapshot nearest to t−10 s ({@code get_current_response_time_percentile}:
 *       snapshots are taken as each second's first request arrives, tried in the order t−10, t−11, t−9, …, t−18,
 *       t−2; 0 when there is none yet); and the totals since start ({@code Total Request Count}, the median by
 *       {@code median_from_dict}, mean, min, max);</li>
 *   <li>{@code _stats.csv}: the totals per endpoint and Aggregated, with the since-start percentiles.</li>
 * </ul>
 * Latencies are whole milliseconds already rounded as Locust rounds them; content sizes are not published and
 * written as 0; no request fails.
 */
final class LocustCsvWriter {

    /** Locust's PERCENTILES_TO_REPORT, as the column names it prints. */
    private static final String PERCENT_COLUMNS = "50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%";
    static final String HISTORY_HEADER = "Timestamp,User Count,Type,Name,Requests/s,Failures/s," + PERCENT_COLUMNS
            + ",Total Request Count,Total Failure Count,Total Median Response Time,Total Average Response Time,"
            + "Total Min Response Time,Total Max Response Time,Total Average Content Size";
    static final String STATS_HEADER = "Type,Name,Request Count,Failure Count,Median Response Time,"
            + "Average Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,"
            + PERCENT_COLUMNS;
    /** CURRENT_RESPONSE_TIME_PERCENTILE_WINDOW, seconds. */
    private static final int WINDOW_SECONDS = 10;

    /** One of Locust's stats entries: an endpoint's method and name. */
    record Entry(String method, String name) {
    }

    private LocustCsvWriter() {
    }

    /**
     * @param served  per second k of the run ([k, k + 1) s after {@code started}), per entry, the latencies in ms
     * @param usersAt Locust's user count at t whole seconds after {@code started}
     */
    static LocustBackendRun.LocustCsv write(Instant started, int runSeconds, List<Entry> entries,
            List<List<List<Long>>> served, IntUnaryOperator usersAt) {
        List<Integer> order = new ArrayList<>();
        for (int e = 0; e < entries.size(); e++) {
            order.add(e);
        }
        order.sort(Comparator.comparing((Integer e) -> entries.get(e).name()).thenComparing(e -> entries.get(e).method()));
        StringBuilder history = new StringBuilder(HISTORY_HEADER).append('\n');
        List<LocustPercentiles> sinceStart = new ArrayList<>();
        for (int e = 0; e <= entries.size(); e++) {
            sinceStart.add(new LocustPercentiles());
        }
        int firstOfAll = order.stream().mapToInt(e -> firstSecond(served, e)).filter(s -> s >= 0).min().orElse(-1);
        // the history's rows: t = 0 … runSeconds − 1; the requests of seconds [0, t) are in row t
        for (int t = 0; t < runSeconds; t++) {
            if (t > 0) {
                for (int e : order) {
                    served.get(t - 1).get(e).forEach(sinceStart.get(e)::add);
                    served.get(t - 1).get(e).forEach(sinceStart.get(entries.size())::add);
                }
            }
            long timestamp = started.getEpochSecond() + t;
            int users = usersAt.applyAsInt(t);
            for (int e : order) {
                int first = firstSecond(served, e);
                if (first >= 0 && first < t) {
                    history.append(historyRow(timestamp, users, entries.get(e), served, List.of(e),
                            sinceStart.get(e), first, t));
                }
            }
            history.append(historyRow(timestamp, users, new Entry("", LocustBackendRun.AGGREGATED), served, order,
                    sinceStart.get(entries.size()), firstOfAll, t));
        }
        StringBuilder totals = new StringBuilder(STATS_HEADER).append('\n');
        List<List<Integer>> rows = new ArrayList<>();
        order.forEach(e -> rows.add(List.of(e)));
        rows.add(order);
        for (List<Integer> row : rows) {
            Entry entry = row.size() == 1 ? entries.get(row.getFirst()) : new Entry("", LocustBackendRun.AGGREGATED);
            LocustPercentiles p = histogram(served, row, 0, runSeconds);
            int first = row.stream().mapToInt(e -> firstSecond(served, e)).min().orElseThrow();
            double rps = p.count() / (double) Math.max(runSeconds - first, 1);
            totals.append(String.join(",", entry.method(), entry.name(), Long.toString(p.count()), "0",
                    Long.toString(p.median()), Double.toString(p.mean()), Long.toString(p.min()),
                    Long.toString(p.max()), "0.0", fixed(rps), fixed(0), percentiles(p))).append('\n');
        }
        return new LocustBackendRun.LocustCsv(history.toString(), totals.toString());
    }

    private static String historyRow(long timestamp, int users, Entry entry, List<List<List<Long>>> served,
            List<Integer> of, LocustPercentiles total, int first, int t) {
        String percentiles;
        if (total.count() == 0) {
            percentiles = String.join(",", java.util.Collections.nCopies(LocustPercentiles.LEVELS.length, "N/A"));
        } else {
            int snapshot = snapshot(first, t);
            percentiles = snapshot < 0 ? String.join(",", java.util.Collections.nCopies(
                    LocustPercentiles.LEVELS.length, "0")) : percentiles(histogram(served, of, snapshot + 1, t));
        }
        String totals = total.count() == 0 ? "0,0,0,0.0,0,0,0" : String.join(",", Long.toString(total.count()), "0",
                Long.toString(total.median()), Double.toString(total.mean()), Long.toString(total.min()),
                Long.toString(total.max()), "0.0");
        return String.join(",", Long.toString(timestamp), Integer.toString(users), entry.method(), entry.name(),
                fixed(currentRps(served, of, first, t)), fixed(0), percentiles, totals) + "\n";
    }

    /**
     * The second whose snapshot the window starts after, or −1: the snapshot of second j (taken at the first request
     * of second j + 1) exists for first ≤ j ≤ t − 2.
     */
    static int snapshot(int first, int t) {
        List<Integer> tried = new ArrayList<>(List.of(t - WINDOW_SECONDS));
        for (int i = 1; i < 9; i++) {
            tried.add(t - WINDOW_SECONDS - i);
            tried.add(t - WINDOW_SECONDS + i);
        }
        return tried.stream().filter(j -> first >= 0 && j >= first && j <= t - 2).findFirst().orElse(-1);
    }

    /** {@code current_rps}: the mean of the per-second counts over [max(last − 12, first), last − 2). */
    private static double currentRps(List<List<List<Long>>> served, List<Integer> of, int first, int t) {
        if (first < 0 || first >= t) {
            return 0;
        }
        int last = t - 1;
        int from = Math.max(last - 12, first);
        long requests = 0;
        int seconds = 0;
        for (int k = from; k < last - 2; k++) {
            for (int e : of) {
                requests += served.get(k).get(e).size();
            }
            seconds++;
        }
        return requests / (double) Math.max(seconds, 1);
    }

    private static int firstSecond(List<List<List<Long>>> served, int entry) {
        for (int k = 0; k < served.size(); k++) {
            if (!served.get(k).get(entry).isEmpty()) {
                return k;
            }
        }
        return -1;
    }

    /** The entries' requests of seconds [from, to). */
    private static LocustPercentiles histogram(List<List<List<Long>>> served, List<Integer> of, int from, int to) {
        LocustPercentiles p = new LocustPercentiles();
        for (int k = Math.max(from, 0); k < to; k++) {
            for (int e : of) {
                served.get(k).get(e).forEach(p::add);
            }
        }
        return p;
    }

    private static String percentiles(LocustPercentiles p) {
        List<String> out = new ArrayList<>();
        for (double level : LocustPercentiles.LEVELS) {
            out.add(Long.toString(p.percentile(level)));
        }
        return String.join(",", out);
    }

    /** Python's {@code f"{x:2f}"}: six decimals. */
    private static String fixed(double v) {
        return String.format(Locale.ROOT, "%f", v);
    }
}
