package dev.caplab.ingest.jmeter;

import dev.caplab.ingest.adapter.Adapter;
import dev.caplab.ingest.adapter.AdapterOptions;
import dev.caplab.ingest.adapter.LineParser;
import dev.caplab.ingest.adapter.csv.CsvLineParser;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * JMeter JTL CSV results. Options: {@code source} (default "jmeter"), and {@code columns=timeStamp,elapsed,...} for
 * a headerless file whose columns differ from JMeter's default set.
 */
public final class JmeterAdapter implements Adapter {

    public static final String FORMAT = "jmeter";
    public static final String DEFAULT_SOURCE = "jmeter";

    private final List<String> headerlessColumns;
    private final String source;

    public JmeterAdapter(List<String> headerlessColumns, String source) {
        this.headerlessColumns = List.copyOf(headerlessColumns);
        this.source = source;
    }

    public static JmeterAdapter of(AdapterOptions options) {
        options.requireKnown(FORMAT, Set.of("source", "columns"), Set.of());
        String columns = options.text("columns", String.join(",", JtlColumns.DEFAULT));
        return new JmeterAdapter(Arrays.stream(columns.split(",")).map(String::strip).toList(),
                options.text("source", DEFAULT_SOURCE));
    }

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public LineParser newParser() {
        return new CsvLineParser(new JtlFormat(headerlessColumns, source));
    }
}
