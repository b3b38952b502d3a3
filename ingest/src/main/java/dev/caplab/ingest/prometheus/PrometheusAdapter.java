package dev.caplab.ingest.prometheus;

import dev.caplab.ingest.adapter.Adapter;
import dev.caplab.ingest.adapter.AdapterOptions;
import dev.caplab.ingest.adapter.LineParser;
import dev.caplab.ingest.adapter.UndatedRows;
import java.util.Set;

/**
 * A saved {@code /metrics} page (text exposition); option {@code source} names what was scraped (default
 * "prometheus"), option {@code at} the time of the scrape for lines without a timestamp ({@link UndatedRows}).
 */
public final class PrometheusAdapter implements Adapter {

    public static final String FORMAT = "prometheus";
    public static final String DEFAULT_SOURCE = "prometheus";

    private final String source;
    private final UndatedRows undated;

    public PrometheusAdapter(String source, UndatedRows undated) {
        this.source = source;
        this.undated = undated;
    }

    public static PrometheusAdapter of(AdapterOptions options) {
        options.requireKnown(FORMAT, Set.of("source", UndatedRows.OPTION), Set.of());
        return new PrometheusAdapter(options.text("source", DEFAULT_SOURCE), UndatedRows.of(FORMAT, options));
    }

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public LineParser newParser() {
        return new ExpositionParser(source, undated);
    }
}
