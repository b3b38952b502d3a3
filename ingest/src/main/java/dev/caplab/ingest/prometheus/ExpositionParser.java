package dev.caplab.ingest.prometheus;

import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.ingest.adapter.FieldException;
import dev.caplab.ingest.adapter.InputLine;
import dev.caplab.ingest.adapter.LineParser;
import dev.caplab.ingest.adapter.QuantileKeys;
import dev.caplab.ingest.adapter.ResultBuilder;
import dev.caplab.schema.sample.Samples;
import dev.caplab.ingest.adapter.UndatedRows;
import dev.caplab.ingest.parse.ParseResult;
import dev.caplab.schema.event.SummaryStats;
import dev.caplab.schema.event.SummaryWindow;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One Prometheus text exposition document (also OpenMetrics text). Names and labels are kept verbatim; the
 * {@code # TYPE} decides the kind: counters and every histogram series ({@code _bucket} with its {@code le},
 * {@code _sum}, {@code _count}) are COUNTER, because they are totals since the process started; a summary's
 * quantile lines become one SUMMARY sample per label set (window WINDOW: client libraries compute them over a
 * sliding window) while its {@code _sum} and {@code _count} are counters; everything else is a GAUGE. NaN means
 * "no observation" in the exposition and gives no sample (nor a quantile). A line without its own timestamp gets
 * the time {@link UndatedRows} gives it: the scrape's time when scraped live, {@code -o at=} for a saved page.
 */
final class ExpositionParser implements LineParser {

    private static final List<String> SUFFIXES = List.of("_bucket", "_count", "_sum", "_total", "_created", "_info");

    private final String source;
    private final UndatedRows undated;
    private final Map<String, MetricType> types = new HashMap<>();
    private final Map<String, SummaryGroup> summaries = new LinkedHashMap<>();

    ExpositionParser(String source, UndatedRows undated) {
        this.source = source;
        this.undated = undated;
    }

    @Override
    public ParseResult accept(InputLine line) {
        String text = line.text().strip();
        ResultBuilder out = new ResultBuilder();
        if (text.isEmpty()) {
            return out.build();
        }
        try {
            if (text.startsWith("#")) {
                comment(text);
            } else {
                sample(ExpositionLine.parse(text), line, out);
            }
        } catch (FieldException e) {
            out.error(line.number(), e.field(), e.reason(), line.text());
        }
        return out.build();
    }

    @Override
    public ParseResult finish() {
        ResultBuilder out = new ResultBuilder();
        for (SummaryGroup group : summaries.values()) {
            if (!group.quantiles.isEmpty()) {
                SummaryStats stats = SummaryStats.newBuilder().setWindow(SummaryWindow.WINDOW)
                        .setQuantiles(group.quantiles).build();
                out.sample(Samples.summary(group.at, source, group.name, stats, group.labels));
            }
        }
        summaries.clear();
        return out.build();
    }

    private void comment(String text) {
        String[] parts = text.substring(1).strip().split("\\s+", 3);
        if (parts[0].equals("TYPE")) {
            if (parts.length < 3) {
                throw new FieldException("TYPE", "expected '# TYPE name type'");
            }
            types.put(parts[1], MetricType.of(parts[2]));
        }
    }

    private void sample(ExpositionLine line, InputLine input, ResultBuilder out) {
        Instant at = line.timestampMillis().isPresent() ? Instant.ofEpochMilli(line.timestampMillis().getAsLong())
                : undated.timeOf(input);
        String suffix = suffixOf(line.name());
        MetricType type = typeOf(line.name(), suffix);
        if (type == MetricType.SUMMARY && line.labels().containsKey(LabelNames.QUANTILE)) {
            quantile(line, at);
            return;
        }
        if (Double.isNaN(line.value())) {
            return;
        }
        boolean counter = switch (type) {
            case COUNTER -> !suffix.equals("_created");
            case HISTOGRAM, SUMMARY -> suffix.equals("_bucket") || suffix.equals("_sum") || suffix.equals("_count");
            default -> false;
        };
        out.sample(counter ? Samples.counter(at, source, line.name(), line.value(), line.labels())
                : Samples.gauge(at, source, line.name(), line.value(), line.labels()));
    }

    private void quantile(ExpositionLine line, Instant at) {
        Map<String, String> labels = new LinkedHashMap<>(line.labels());
        String quantile = labels.remove(LabelNames.QUANTILE);
        String key;
        try {
            key = QuantileKeys.fromFraction(quantile);
        } catch (NumberFormatException e) {
            throw new FieldException(LabelNames.QUANTILE, "not a quantile in [0,1]: '" + quantile + "'");
        }
        SummaryGroup group = summaries.computeIfAbsent(line.name() + labels, k -> new SummaryGroup(line.name(),
                labels, at));
        if (!Double.isNaN(line.value())) {
            group.quantiles.put(key, line.value());
        }
    }

    private MetricType typeOf(String name, String suffix) {
        MetricType exact = types.get(name);
        if (exact != null) {
            return exact;
        }
        if (!suffix.isEmpty()) {
            MetricType family = types.get(name.substring(0, name.length() - suffix.length()));
            if (family != null) {
                return family;
            }
        }
        return MetricType.UNTYPED;
    }

    private static String suffixOf(String name) {
        return SUFFIXES.stream().filter(name::endsWith).findFirst().orElse("");
    }

    /** The quantile lines of one summary series, collected until the document ends. */
    private static final class SummaryGroup {
        final String name;
        final Map<String, String> labels;
        final Instant at;
        final Map<String, Double> quantiles = new LinkedHashMap<>();

        SummaryGroup(String name, Map<String, String> labels, Instant at) {
            this.name = name;
            this.labels = labels;
            this.at = at;
        }
    }
}
