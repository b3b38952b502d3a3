package dev.caplab.ingest.prometheus;

import dev.caplab.ingest.adapter.Adapter;
import dev.caplab.ingest.adapter.AdapterOptions;
import dev.caplab.ingest.adapter.LineParser;
import java.util.Set;

/** A saved {@code /metrics} page (text exposition); option {@code source} names what was scraped (default "prometheus"). */
public final class PrometheusAdapter implements Adapter {

    public static final String FORMAT = "prometheus";
    public static final String DEFAULT_SOURCE = "prometheus";

    private final String source;

    public PrometheusAdapter(String source) {
        this.source = source;
    }

    public static PrometheusAdapter of(AdapterOptions options) {
        options.requireKnown(FORMAT, Set.of("source"), Set.of());
        return new PrometheusAdapter(options.text("source", DEFAULT_SOURCE));
    }

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public LineParser newParser() {
        return new ExpositionParser(source);
    }
}
