package dev.caplab.ingest.remotewrite;

import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.ingest.remotewrite.prompb.Types.MetricMetadata.MetricType;
import java.util.Map;

/**
 * What a float series becomes: the same rules as a scraped page ({@code ExpositionParser}), with the declared
 * metadata type when the sender gave one, else the naming conventions: {@code _total}, {@code _bucket} with an
 * {@code le} label, {@code _count} and {@code _sum} are cumulative totals (COUNTER); a series with a
 * {@code quantile} label is a summary quantile (QUANTILE, stored as a SUMMARY sample, never averaged); everything
 * else is a GAUGE.
 */
enum SeriesKind {
    COUNTER, GAUGE, QUANTILE;

    static final String LE = "le";

    static SeriesKind of(String name, Map<String, String> labels, MetricType declared) {
        if (declared == null) {
            return byName(name, labels);
        }
        return switch (declared) {
            case COUNTER -> name.endsWith("_created") ? GAUGE : COUNTER;
            case HISTOGRAM -> histogramPart(name) ? COUNTER : GAUGE;
            case SUMMARY -> labels.containsKey(LabelNames.QUANTILE) ? QUANTILE : histogramPart(name) ? COUNTER : GAUGE;
            // gauge histograms' buckets go up and down: levels, not totals
            default -> GAUGE;
        };
    }

    private static SeriesKind byName(String name, Map<String, String> labels) {
        if (labels.containsKey(LabelNames.QUANTILE)) {
            return QUANTILE;
        }
        if (name.endsWith("_total") || name.endsWith("_count") || name.endsWith("_sum")
                || (name.endsWith("_bucket") && labels.containsKey(LE))) {
            return COUNTER;
        }
        return GAUGE;
    }

    private static boolean histogramPart(String name) {
        return name.endsWith("_bucket") || name.endsWith("_count") || name.endsWith("_sum");
    }
}
