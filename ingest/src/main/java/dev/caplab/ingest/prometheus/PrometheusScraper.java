package dev.caplab.ingest.prometheus;

import dev.caplab.ingest.adapter.Adapter;
import dev.caplab.ingest.adapter.CheckedAdapter;
import dev.caplab.ingest.adapter.IntervalPublisher;
import dev.caplab.ingest.adapter.UndatedRows;
import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.ingest.parse.ParseResult;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.publish.SampleSink;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Scrapes one {@code /metrics} endpoint (node_exporter, cAdvisor, LiveKit, anything exposing the text format) at a
 * fixed interval and publishes the samples; {@link #scrapeOnce()} is the single scrape the loop repeats.
 * Samples without their own timestamp get the time the scrape started.
 */
public final class PrometheusScraper implements AutoCloseable {

    public static final String ADAPTER = "prometheus-scrape";
    private static final Duration MIN_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration MAX_TIMEOUT = Duration.ofSeconds(10);

    private final URI target;
    private final Adapter adapter;
    private final HttpClient http;
    private final Clock clock;
    private final Duration timeout;
    private final IntervalPublisher loop;

    public PrometheusScraper(URI target, String source, Duration interval, String runId, SampleSink sink,
            Consumer<IntervalPublisher.Problem> problems) {
        this(target, source, interval, runId, sink, problems, Clock.systemUTC());
    }

    PrometheusScraper(URI target, String source, Duration interval, String runId, SampleSink sink,
            Consumer<IntervalPublisher.Problem> problems, Clock clock) {
        this.target = Objects.requireNonNull(target, "target");
        // scraped pages pass the same door as files: names, labels and the time window
        this.adapter = new CheckedAdapter(new PrometheusAdapter(source, UndatedRows.unset(PrometheusAdapter.FORMAT)), new SampleChecks(IngestLimits.DEFAULTS));
        this.clock = clock;
        // a scrape slower than the interval delays the next one, as Prometheus' scrape_timeout caps it; at least 1 s
        // so that a short interval on a loaded machine does not turn every scrape into a timeout
        this.timeout = interval.compareTo(MIN_TIMEOUT) < 0 ? MIN_TIMEOUT
                : interval.compareTo(MAX_TIMEOUT) > 0 ? MAX_TIMEOUT : interval;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
        this.loop = new IntervalPublisher(ADAPTER, runId, interval, this::scrapeOnce, sink, problems);
    }

    /** The host:port of a target URL: the natural source name of what it exposes. */
    public static String defaultSource(URI target) {
        return target.getPort() < 0 ? target.getHost() : target.getHost() + ":" + target.getPort();
    }

    public ParseResult scrapeOnce() {
        java.time.Instant startedAt = clock.instant();
        HttpRequest request = HttpRequest.newBuilder(target).timeout(timeout)
                .header("Accept", "text/plain;version=0.0.4;q=1,*/*;q=0.1").GET().build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new ScrapeException(target, e.toString(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ScrapeException(target, "interrupted", e);
        }
        if (response.statusCode() != 200) {
            throw new ScrapeException(target, "HTTP " + response.statusCode(), null);
        }
        return adapter.parse(response.body(), startedAt);
    }

    public void start() {
        loop.start();
    }

    public void stop() {
        loop.stop();
    }

    @Override
    public void close() {
        stop();
    }

    public long scrapes() {
        return loop.ticks();
    }
}
