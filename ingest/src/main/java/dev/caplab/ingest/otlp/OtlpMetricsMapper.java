package dev.caplab.ingest.otlp;

import dev.caplab.ingest.adapter.QuantileKeys;
import dev.caplab.schema.sample.Samples;
import dev.caplab.ingest.census.ExpansionBudget;
import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryStats;
import dev.caplab.schema.event.SummaryWindow;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.DataPointFlags;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.SummaryDataPoint;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An OTLP {@code ExportMetricsServiceRequest} as caplab samples; a pure function of the request, the default run,
 * the receiving time and the running delta totals. Per data point:
 * <ul>
 *   <li>gauge: one GAUGE {@code <name>};</li>
 *   <li>sum: monotonic → COUNTER {@code <name>}, non-monotonic → GAUGE {@code <name>}; delta points are added to
 *       a running total first ({@link DeltaTotals}), so the stored value is cumulative either way;</li>
 *   <li>histogram and exponential histogram: COUNTER {@code <name>.count}, {@code <name>.sum} (when present),
 *       {@code <name>.bucket} per cumulative bound in label {@code le} ({@link HistogramBuckets}; the exponential
 *       one also {@code <name>.zero_count}), GAUGE {@code <name>.min}/{@code <name>.max} when present;</li>
 *   <li>summary: SUMMARY {@code <name>} with its quantiles (window WINDOW, as Prometheus client libraries compute
 *       them over a sliding window), COUNTER {@code <name>.count} and {@code <name>.sum}.</li>
 * </ul>
 * Source, run and labels come from attributes ({@link OtlpAttributes}). A point is stored whole or not at all: when
 * one of its samples fails {@link SampleChecks} (or the point is malformed) the point is rejected with an error
 * naming its ordinal, metric and field, and every other point is kept. Points flagged "no recorded value" are
 * skipped silently (they mark staleness, not data).
 */
public final class OtlpMetricsMapper {

    public static final String COUNT = ".count";
    public static final String SUM = ".sum";
    public static final String BUCKET = ".bucket";
    public static final String ZERO_COUNT = ".zero_count";
    public static final String MIN = ".min";
    public static final String MAX = ".max";
    /** Label of a bucket's upper bound, as in Prometheus. */
    public static final String LE = "le";

    private final SampleChecks checks;

    public OtlpMetricsMapper(SampleChecks checks) {
        this.checks = checks;
    }

    /** How many data points a request carried and how many of them had no run id. */
    public record Mapped(long points, long withoutRun) {
    }

    /** True when a point of the request has delta temporality, so its mapping needs {@link DeltaTotals}. */
    public static boolean hasDelta(ExportMetricsServiceRequest request) {
        for (ResourceMetrics rm : request.getResourceMetricsList()) {
            for (ScopeMetrics sm : rm.getScopeMetricsList()) {
                for (Metric m : sm.getMetricsList()) {
                    if (temporality(m) == AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * Counts what {@code request} expands to (samples per point, each with the point's and its resource's attributes
     * and a bucket bound) into {@code budget}, before {@link #map} builds any of it.
     */
    public static void count(ExportMetricsServiceRequest request, ExpansionBudget budget) {
        for (int r = 0; r < request.getResourceMetricsCount(); r++) {
            ResourceMetrics rm = request.getResourceMetrics(r);
            int resourceLabels = rm.getResource().getAttributesCount();
            for (int s = 0; s < rm.getScopeMetricsCount(); s++) {
                ScopeMetrics sm = rm.getScopeMetrics(s);
                for (int i = 0; i < sm.getMetricsCount(); i++) {
                    Metric m = sm.getMetrics(i);
                    String field = "resourceMetrics[" + r + "].scopeMetrics[" + s + "].metrics[" + i + "]";
                    switch (m.getDataCase()) {
                        case GAUGE -> m.getGauge().getDataPointsList().forEach(p ->
                                budget.add(field, 1, resourceLabels + p.getAttributesCount()));
                        case SUM -> m.getSum().getDataPointsList().forEach(p ->
                                budget.add(field, 1, resourceLabels + p.getAttributesCount()));
                        // count, sum, min, max, then one sample per bucket (+Inf included) carrying le too
                        case HISTOGRAM -> m.getHistogram().getDataPointsList().forEach(p -> budget.add(field,
                                4L + p.getBucketCountsCount() + 1, resourceLabels + p.getAttributesCount() + 1L));
                        case EXPONENTIAL_HISTOGRAM -> m.getExponentialHistogram().getDataPointsList().forEach(p ->
                                budget.add(field, 5L + p.getPositive().getBucketCountsCount()
                                        + p.getNegative().getBucketCountsCount() + 2,
                                        resourceLabels + p.getAttributesCount() + 1L));
                        case SUMMARY -> m.getSummary().getDataPointsList().forEach(p ->
                                budget.add(field, 3, resourceLabels + p.getAttributesCount()));
                        case DATA_NOT_SET -> budget.add(field, 0, 0);
                    }
                }
            }
        }
    }

    /**
     * Maps every data point into {@code out}.
     *
     * @param defaultRunId run of points whose attributes name none, or null to reject such points
     * @param deltas       running totals of delta series; may be null when {@link #hasDelta} is false
     */
    public Mapped map(ExportMetricsServiceRequest request, String defaultRunId, Instant receivedAt,
            DeltaTotals.Batch deltas, RoutedSamples.Builder out) {
        Cursor cursor = new Cursor(defaultRunId, receivedAt, deltas, out);
        for (ResourceMetrics rm : request.getResourceMetricsList()) {
            Map<String, String> resource = OtlpAttributes.texts(rm.getResource().getAttributesList());
            String sourceKey = OtlpAttributes.sourceKey(resource);
            cursor.resource(sourceKey == null ? OtlpAttributes.DEFAULT_SOURCE : resource.get(sourceKey),
                    OtlpAttributes.first(resource, OtlpAttributes.RUN_KEYS),
                    OtlpAttributes.resourceLabels(resource, sourceKey));
            for (ScopeMetrics sm : rm.getScopeMetricsList()) {
                for (Metric m : sm.getMetricsList()) {
                    metric(m, cursor);
                }
            }
        }
        return new Mapped(cursor.points, cursor.withoutRun);
    }

    private void metric(Metric m, Cursor c) {
        String name = m.getName();
        switch (m.getDataCase()) {
            case GAUGE -> m.getGauge().getDataPointsList().forEach(p -> c.point(name, p.getAttributesList(),
                    p.getFlags(), p.getTimeUnixNano(), p.getStartTimeUnixNano(),
                    () -> List.of(new Part("", SampleKind.GAUGE, value(p), Map.of(), null, false))));
            case SUM -> {
                boolean delta = m.getSum().getAggregationTemporality()
                        == AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA;
                SampleKind kind = m.getSum().getIsMonotonic() ? SampleKind.COUNTER : SampleKind.GAUGE;
                AggregationTemporality temporality = m.getSum().getAggregationTemporality();
                m.getSum().getDataPointsList().forEach(p -> c.point(name, p.getAttributesList(), p.getFlags(),
                        p.getTimeUnixNano(), p.getStartTimeUnixNano(), () -> {
                            requireTemporality(temporality);
                            return List.of(new Part("", kind, value(p), Map.of(), null, delta));
                        }));
            }
            case HISTOGRAM -> {
                AggregationTemporality temporality = m.getHistogram().getAggregationTemporality();
                m.getHistogram().getDataPointsList().forEach(p -> c.point(name, p.getAttributesList(),
                        p.getFlags(), p.getTimeUnixNano(), p.getStartTimeUnixNano(),
                        () -> histogram(p, temporality)));
            }
            case EXPONENTIAL_HISTOGRAM -> {
                AggregationTemporality temporality = m.getExponentialHistogram().getAggregationTemporality();
                m.getExponentialHistogram().getDataPointsList().forEach(p -> c.point(name, p.getAttributesList(),
                        p.getFlags(), p.getTimeUnixNano(), p.getStartTimeUnixNano(),
                        () -> exponential(p, temporality)));
            }
            case SUMMARY -> m.getSummary().getDataPointsList().forEach(p -> c.point(name, p.getAttributesList(),
                    p.getFlags(), p.getTimeUnixNano(), p.getStartTimeUnixNano(), () -> summary(p)));
            case DATA_NOT_SET -> c.reject(name, null, "metric carries no data (gauge, sum, histogram, "
                    + "exponential_histogram or summary)");
        }
    }

    private static List<Part> histogram(HistogramDataPoint p, AggregationTemporality temporality) {
        return histogramParts(temporality, p.getCount(), p.hasSum() ? p.getSum() : null, null,
                HistogramBuckets.explicit(p), p.hasMin() ? p.getMin() : null, p.hasMax() ? p.getMax() : null);
    }

    private static List<Part> exponential(ExponentialHistogramDataPoint p, AggregationTemporality temporality) {
        return histogramParts(temporality, p.getCount(), p.hasSum() ? p.getSum() : null, p.getZeroCount(),
                HistogramBuckets.exponential(p), p.hasMin() ? p.getMin() : null, p.hasMax() ? p.getMax() : null);
    }

    /** count, sum, zero count (exponential only), cumulative {@code le} buckets, min and max of a histogram point. */
    private static List<Part> histogramParts(AggregationTemporality temporality, long count, Double sum,
            Long zeroCount, Map<String, Double> buckets, Double min, Double max) {
        requireTemporality(temporality);
        boolean delta = temporality == AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA;
        List<Part> parts = new ArrayList<>();
        parts.add(new Part(COUNT, SampleKind.COUNTER, HistogramBuckets.unsigned(count), Map.of(), null, delta));
        if (sum != null) {
            parts.add(new Part(SUM, SampleKind.COUNTER, sum, Map.of(), null, delta));
        }
        if (zeroCount != null) {
            parts.add(new Part(ZERO_COUNT, SampleKind.COUNTER, HistogramBuckets.unsigned(zeroCount), Map.of(), null,
                    delta));
        }
        buckets.forEach((le, c) -> parts.add(new Part(BUCKET, SampleKind.COUNTER, c, Map.of(LE, le), null, delta)));
        if (min != null) {
            parts.add(new Part(MIN, SampleKind.GAUGE, min, Map.of(), null, false));
        }
        if (max != null) {
            parts.add(new Part(MAX, SampleKind.GAUGE, max, Map.of(), null, false));
        }
        return parts;
    }

    private List<Part> summary(SummaryDataPoint p) {
        List<Part> parts = new ArrayList<>();
        Map<String, Double> quantiles = new TreeMap<>();
        for (SummaryDataPoint.ValueAtQuantile q : p.getQuantileValuesList()) {
            if (!Double.isNaN(q.getValue())) {
                quantiles.put(QuantileKeys.fromFraction(Double.toString(q.getQuantile())), q.getValue());
            }
        }
        if (!quantiles.isEmpty()) {
            parts.add(new Part("", SampleKind.SUMMARY, Double.NaN, Map.of(),
                    SummaryStats.newBuilder().setWindow(SummaryWindow.WINDOW).setQuantiles(quantiles).build(), false));
        }
        parts.add(new Part(COUNT, SampleKind.COUNTER, HistogramBuckets.unsigned(p.getCount()), Map.of(), null, false));
        parts.add(new Part(SUM, SampleKind.COUNTER, p.getSum(), Map.of(), null, false));
        return parts;
    }

    private static double value(NumberDataPoint p) {
        return switch (p.getValueCase()) {
            case AS_DOUBLE -> p.getAsDouble();
            case AS_INT -> p.getAsInt();
            case VALUE_NOT_SET -> throw new IllegalArgumentException("data point has neither as_double nor as_int");
        };
    }

    private static void requireTemporality(AggregationTemporality temporality) {
        if (temporality != AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE
                && temporality != AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA) {
            throw new IllegalArgumentException("aggregation_temporality must be DELTA (1) or CUMULATIVE (2), was "
                    + temporality);
        }
    }

    private static AggregationTemporality temporality(Metric m) {
        return switch (m.getDataCase()) {
            case SUM -> m.getSum().getAggregationTemporality();
            case HISTOGRAM -> m.getHistogram().getAggregationTemporality();
            case EXPONENTIAL_HISTOGRAM -> m.getExponentialHistogram().getAggregationTemporality();
            default -> AggregationTemporality.AGGREGATION_TEMPORALITY_UNSPECIFIED;
        };
    }

    /** One sample a data point gives: metric suffix, kind, value, extra labels; {@code delta}: add to a total. */
    private record Part(String suffix, SampleKind kind, double value, Map<String, String> labels,
            SummaryStats summary, boolean delta) {
    }

    /** The parts of one data point; throws IllegalArgumentException or LimitException when it is malformed. */
    @FunctionalInterface
    private interface PointParts {
        List<Part> parts();
    }

    /** Where the mapping is: the current resource, the point ordinal, what was rejected. */
    private final class Cursor {

        private final String defaultRunId;
        private final Instant receivedAt;
        private final DeltaTotals.Batch deltas;
        private final RoutedSamples.Builder out;
        private String source;
        private String resourceRun;
        private Map<String, String> resourceLabels;
        private long points;
        private long withoutRun;

        Cursor(String defaultRunId, Instant receivedAt, DeltaTotals.Batch deltas, RoutedSamples.Builder out) {
            this.defaultRunId = defaultRunId;
            this.receivedAt = receivedAt;
            this.deltas = deltas;
            this.out = out;
        }

        void resource(String source, String run, Map<String, String> labels) {
            this.source = source;
            this.resourceRun = run;
            this.resourceLabels = labels;
        }

        void reject(String metric, String field, String reason) {
            points++;
            out.error(new ParseError(points, field, reason, metric));
        }

        void point(String metric, List<KeyValue> attributes, int flags, long timeNanos, long startNanos,
                PointParts parts) {
            if ((flags & DataPointFlags.DATA_POINT_FLAGS_NO_RECORDED_VALUE_MASK_VALUE) != 0) {
                return;
            }
            points++;
            Map<String, String> pointAttributes = OtlpAttributes.texts(attributes);
            String run = OtlpAttributes.first(pointAttributes, OtlpAttributes.RUN_KEYS);
            run = run != null ? run : resourceRun != null ? resourceRun : defaultRunId;
            if (run == null) {
                withoutRun++;
                out.error(new ParseError(points, SampleChecks.RUN_FIELD, OtlpRunIds.MISSING, metric));
                return;
            }
            Map<String, String> labels = new LinkedHashMap<>(resourceLabels);
            pointAttributes.forEach((k, v) -> {
                if (!OtlpAttributes.RUN_KEYS.contains(k)) {
                    labels.put(k, v);
                }
            });
            Instant at = timeNanos == 0 ? receivedAt : instant(timeNanos);
            List<Part> built;
            List<Sample> samples = new ArrayList<>();
            try {
                built = parts.parts();
                for (Part part : built) {
                    Map<String, String> sampleLabels = labels;
                    if (!part.labels().isEmpty()) {
                        sampleLabels = new LinkedHashMap<>(labels);
                        sampleLabels.putAll(part.labels());
                    }
                    Sample sample = sample(at, metric + part.suffix(), part, sampleLabels);
                    checks.check(run, sample, receivedAt);
                    samples.add(sample);
                }
            } catch (SampleChecks.LimitException e) {
                out.error(new ParseError(points, e.field(), e.reason(), metric));
                return;
            } catch (IllegalArgumentException e) {
                out.error(new ParseError(points, null, e.getMessage(), metric));
                return;
            }
            for (int i = 0; i < samples.size(); i++) {
                Sample sample = samples.get(i);
                if (built.get(i).delta()) {
                    accumulate(run, sample, startNanos, timeNanos);
                } else {
                    out.add(run, sample);
                }
            }
        }

        /** A delta sample as its running total; a zero at the start time first when the total was unknown. */
        private void accumulate(String run, Sample sample, long startNanos, long timeNanos) {
            if (deltas == null) {
                throw new IllegalStateException("a delta point needs running totals: call hasDelta first");
            }
            String series = run + '\u0000' + sample.getSource() + '\u0000' + sample.getMetric() + '\u0000'
                    + new TreeMap<>(sample.getLabels());
            if (deltas.total(series) == null && startNanos != 0 && Long.compareUnsigned(startNanos, timeNanos) < 0) {
                Instant start = instant(startNanos);
                if (checks.inWindow(start, receivedAt)) {
                    out.add(run, copy(sample, start, 0));
                }
            }
            out.add(run, copy(sample, sample.getTimestamp(), deltas.add(series, sample.getValue())));
        }

        // field by field: Avro's copying builder deep-copies through reflection, which its class validator refuses
        private static Sample copy(Sample s, Instant at, double value) {
            return Sample.newBuilder().setTimestamp(at).setSource(s.getSource()).setMetric(s.getMetric())
                    .setKind(s.getKind()).setValue(value).setLabels(s.getLabels()).setSummary(s.getSummary()).build();
        }

        private Sample sample(Instant at, String metric, Part part, Map<String, String> labels) {
            return switch (part.kind()) {
                case GAUGE -> Samples.gauge(at, source, metric, part.value(), labels);
                case COUNTER -> Samples.counter(at, source, metric, part.value(), labels);
                case SUMMARY -> Samples.summary(at, source, metric, part.summary(), labels);
            };
        }
    }

    /** An OTLP fixed64 time in nanoseconds, truncated to the schema's microseconds. */
    static Instant instant(long unixNanos) {
        long nanos = unixNanos < 0 ? Long.MAX_VALUE : unixNanos; // beyond 2262: out of every window anyway
        return Instant.ofEpochSecond(0, nanos).truncatedTo(ChronoUnit.MICROS);
    }
}
