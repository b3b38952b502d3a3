package dev.caplab.app.load;

import java.nio.charset.StandardCharsets;

/**
 * Line protocol as k6's InfluxDB output writes it: one point per line, metric as measurement, field {@code value},
 * eight request tags, nanosecond timestamps. Deterministic, so every target gets the same bytes. Shared by the
 * benchmarks and the soak IT (this module's test-jar).
 */
public final class K6LikeLines {

    private static final String[] METRICS = {"http_req_duration", "http_req_waiting", "http_req_receiving",
        "http_req_sending", "http_reqs", "iteration_duration", "data_received", "vus"};
    private static final String VUS = "vus";
    private static final String[] URLS = {"https://test.k6.io/", "https://test.k6.io/news.php",
        "https://test.k6.io/contacts.php", "https://test.k6.io/flip_coin.php"};
    /** Timestamp of line 0 by default: 2024-03-01T08:00:00Z, in nanoseconds. */
    public static final long START_NANOS = 1_709_280_000_000_000_000L;

    /**
     * The load a run without step events is at: lines carry a {@code step} tag and the {@code vus} lines report
     * {@code vus}, so a constant level per step lets the pipeline infer the steps from it.
     */
    public record Load(int step, int vus) {

        public Load {
            if (step < 0 || vus < 1) {
                throw new IllegalArgumentException("step must be >= 0 and vus >= 1: " + step + ", " + vus);
            }
        }
    }

    private K6LikeLines() {
    }

    /** How many metrics the lines cycle through: any {@code metrics()} consecutive lines hold each once. */
    public static int metrics() {
        return METRICS.length;
    }

    /** Lines [first, first+count) joined by newlines, as one request body: no run tag, 1 ms apart. */
    public static byte[] batch(long first, int count) {
        return batch(null, first, count, START_NANOS, 1_000_000L);
    }

    /**
     * Lines [first, first+count) of one run, line i stamped {@code startNanos + i * spacingNanos}; a non-null
     * {@code run} becomes a {@code run} tag, so several runs' lines stay distinct series in any line-protocol store.
     */
    public static byte[] batch(String run, long first, int count, long startNanos, long spacingNanos) {
        return batch(run, first, count, startNanos, spacingNanos, null);
    }

    /** As {@link #batch(String, long, int, long, long)}, at a known {@code load} when it is not null. */
    public static byte[] batch(String run, long first, int count, long startNanos, long spacingNanos, Load load) {
        StringBuilder out = new StringBuilder(count * (run == null ? 170 : 190 + run.length()));
        for (long i = first; i < first + count; i++) {
            String url = URLS[(int) (i % URLS.length)];
            String metric = METRICS[(int) (i % METRICS.length)];
            out.append(metric).append(",expected_response=true,method=GET,name=").append(url)
                    .append(",proto=HTTP/1.1");
            if (run != null) {
                out.append(",run=").append(run);
            }
            out.append(",scenario=default,status=").append(i % 50 == 0 ? "500" : "200");
            if (load != null) {
                out.append(",step=").append(load.step());
            }
            out.append(",tls_version=tls1.3,url=").append(url).append(" value=");
            if (load != null && VUS.equals(metric)) {
                out.append(load.vus());
            } else {
                out.append((i * 7919 % 100_000) / 100.0);
            }
            out.append(' ').append(startNanos + i * spacingNanos).append('\n');
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }
}
