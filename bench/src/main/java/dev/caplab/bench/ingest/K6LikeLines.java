package dev.caplab.bench.ingest;

import java.nio.charset.StandardCharsets;

/**
 * Line protocol as k6's InfluxDB output writes it: one point per line, metric as measurement, field {@code value},
 * eight request tags, nanosecond timestamps. Deterministic, so every target gets the same bytes.
 */
public final class K6LikeLines {

    private static final String[] METRICS = {"http_req_duration", "http_req_waiting", "http_req_receiving",
        "http_req_sending", "http_reqs", "iteration_duration", "data_received", "vus"};
    private static final String[] URLS = {"https://test.k6.io/", "https://test.k6.io/news.php",
        "https://test.k6.io/contacts.php", "https://test.k6.io/flip_coin.php"};
    /** Timestamp of line 0 by default: 2024-03-01T08:00:00Z, in nanoseconds. */
    public static final long START_NANOS = 1_709_280_000_000_000_000L;

    private K6LikeLines() {
    }

    /** How many metrics the lines cycle through: any {@code metrics()} consecutive lines hold each once. */
    public static int metrics() {
        return METRICS.length;
    }

    /** Lines [first, first+count) joined by newlines, as one request body: no run tag, 1 ms apart. */
    static byte[] batch(long first, int count) {
        return batch(null, first, count, START_NANOS, 1_000_000L);
    }

    /**
     * Lines [first, first+count) of one run, line i stamped {@code startNanos + i * spacingNanos}; a non-null
     * {@code run} becomes a {@code run} tag, so several runs' lines stay distinct series in any line-protocol store.
     */
    public static byte[] batch(String run, long first, int count, long startNanos, long spacingNanos) {
        StringBuilder out = new StringBuilder(count * (run == null ? 170 : 180 + run.length()));
        for (long i = first; i < first + count; i++) {
            String url = URLS[(int) (i % URLS.length)];
            out.append(METRICS[(int) (i % METRICS.length)])
                    .append(",expected_response=true,method=GET,name=").append(url)
                    .append(",proto=HTTP/1.1");
            if (run != null) {
                out.append(",run=").append(run);
            }
            out.append(",scenario=default,status=").append(i % 50 == 0 ? "500" : "200")
                    .append(",tls_version=tls1.3,url=").append(url)
                    .append(" value=").append((i * 7919 % 100_000) / 100.0)
                    .append(' ').append(startNanos + i * spacingNanos).append('\n');
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }
}
