package dev.caplab.ingest.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryWindow;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogram;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.opentelemetry.proto.metrics.v1.Summary;
import io.opentelemetry.proto.metrics.v1.SummaryDataPoint;
import io.opentelemetry.proto.resource.v1.Resource;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each OTLP point type mapped to samples; expected values derived by hand from the OTLP data model. */
class OtlpMetricsMapperTest {

    static final long T1_NANOS = 1_700_000_000_123_456_789L;
    static final Instant T1 = Instant.parse("2023-11-14T22:13:20.123456Z");
    static final Instant NOW = Instant.parse("2023-11-14T22:20:00Z");

    private final OtlpMetricsMapper mapper = new OtlpMetricsMapper(new SampleChecks(IngestLimits.DEFAULTS));

    @Test
    void gaugeTakesSourceRunAndLabelsFromAttributes() {
        RoutedSamples out = map(request(metric("cpu.cores", Gauge.newBuilder().addDataPoints(
                NumberDataPoint.newBuilder().setTimeUnixNano(T1_NANOS).setAsDouble(0.75)
                        .addAttributes(kv("cpu", "0")))), "caplab.run.id", "r1"), null);
        Sample s = only(out, "r1");
        assertThat(s.getTimestamp()).isEqualTo(T1); // nanoseconds truncated to the schema's micros
        assertThat(s.getSource()).isEqualTo("checkout"); // service.name beats host.name
        assertThat(s.getMetric()).isEqualTo("cpu.cores");
        assertThat(s.getKind()).isEqualTo(SampleKind.GAUGE);
        assertThat(s.getValue()).isEqualTo(0.75);
        // host.name stays a label (not the source here); the SDK's own attributes and the run do not
        assertThat(s.getLabels()).containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "0", "host.name", "h1"));
    }

    @Test
    void cumulativeMonotonicSumIsACounterAndNonMonotonicAGauge() {
        Sum.Builder counter = Sum.newBuilder().setIsMonotonic(true)
                .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE)
                .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(T1_NANOS).setAsInt(42));
        Sum.Builder upDown = Sum.newBuilder().setIsMonotonic(false)
                .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE)
                .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(T1_NANOS).setAsInt(-3));
        RoutedSamples out = map(request(List.of(metric("http.requests", counter), metric("queue.depth", upDown)),
                "run", "r1"), null);
        List<Sample> samples = out.samplesByRun().get("r1");
        assertThat(samples).extracting(Sample::getMetric, Sample::getKind, Sample::getValue).containsExactly(
                org.assertj.core.groups.Tuple.tuple("http.requests", SampleKind.COUNTER, 42.0),
                org.assertj.core.groups.Tuple.tuple("queue.depth", SampleKind.GAUGE, -3.0));
    }

    @Test
    void deltaSumsBecomeRunningTotalsCommittedOnlyAfterPublishing() {
        long t0 = T1_NANOS - 10_000_000_000L;
        long t2 = T1_NANOS + 10_000_000_000L;
        DeltaTotals totals = new DeltaTotals(100);
        // first export: 5 requests in (t0, t1]; the unknown series starts with a zero at t0
        RoutedSamples first;
        try (DeltaTotals.Batch batch = totals.begin()) {
            first = map(request(metric("http.requests", deltaSum(t0, T1_NANOS, 5)), "run", "r1"), batch);
            batch.commit();
        }
        assertThat(first.samplesByRun().get("r1")).extracting(Sample::getTimestamp, Sample::getValue)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(T1.minusSeconds(10), 0.0),
                        org.assertj.core.groups.Tuple.tuple(T1, 5.0));
        // second export, not acknowledged (Kafka failed): its 3 must not count
        try (DeltaTotals.Batch batch = totals.begin()) {
            RoutedSamples lost = map(request(metric("http.requests", deltaSum(T1_NANOS, t2, 3)), "run", "r1"), batch);
            assertThat(only(lost, "r1").getValue()).isEqualTo(8.0);
        }
        // its retry: 5 + 3 = 8, once
        try (DeltaTotals.Batch batch = totals.begin()) {
            RoutedSamples retry = map(request(metric("http.requests", deltaSum(T1_NANOS, t2, 3)), "run", "r1"), batch);
            batch.commit();
            Sample s = only(retry, "r1");
            assertThat(s.getKind()).isEqualTo(SampleKind.COUNTER);
            assertThat(s.getValue()).isEqualTo(8.0);
        }
    }

    @Test
    void explicitHistogramGivesCumulativeLeBucketsCountSumMinMax() {
        // bounds 0.1, 0.5, 1 → buckets (-inf,0.1] (0.1,0.5] (0.5,1] (1,+inf) holding 2, 3, 0, 1
        Histogram.Builder h = Histogram.newBuilder()
                .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE)
                .addDataPoints(HistogramDataPoint.newBuilder().setTimeUnixNano(T1_NANOS).setCount(6).setSum(2.2)
                        .addAllExplicitBounds(List.of(0.1, 0.5, 1.0)).addAllBucketCounts(List.of(2L, 3L, 0L, 1L))
                        .setMin(0.05).setMax(3.0));
        Map<String, Double> values = byName(map(request(metric("http.duration", h), "run", "r1"), null), "r1");
        assertThat(values).containsExactlyInAnyOrderEntriesOf(Map.of(
                "http.duration.count", 6.0, "http.duration.sum", 2.2,
                "http.duration.bucket{le=0.1}", 2.0, "http.duration.bucket{le=0.5}", 5.0,
                "http.duration.bucket{le=1}", 5.0, "http.duration.bucket{le=+Inf}", 6.0,
                "http.duration.min", 0.05, "http.duration.max", 3.0));
    }

    @Test
    void exponentialHistogramGivesCumulativeLeBucketsFromScaleAndOffset() {
        // scale 0: base 2. negative index 0 = [-2,-1): 1; zero bucket: 1; positive index 1 = (2,4]: 1,
        // index 2 = (4,8]: 2. Cumulative from the most negative: le -1 → 1, le 0 → 2, le 4 → 3, le 8 → 5, +Inf → 5
        ExponentialHistogram.Builder e = ExponentialHistogram.newBuilder()
                .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE)
                .addDataPoints(ExponentialHistogramDataPoint.newBuilder().setTimeUnixNano(T1_NANOS).setScale(0)
                        .setCount(5).setSum(13.5).setZeroCount(1).setZeroThreshold(0)
                        .setNegative(ExponentialHistogramDataPoint.Buckets.newBuilder().setOffset(0)
                                .addBucketCounts(1))
                        .setPositive(ExponentialHistogramDataPoint.Buckets.newBuilder().setOffset(1)
                                .addBucketCounts(1).addBucketCounts(2)));
        Map<String, Double> values = byName(map(request(metric("latency", e), "run", "r1"), null), "r1");
        assertThat(values).containsExactlyInAnyOrderEntriesOf(Map.of(
                "latency.count", 5.0, "latency.sum", 13.5, "latency.zero_count", 1.0,
                "latency.bucket{le=-1}", 1.0, "latency.bucket{le=0}", 2.0, "latency.bucket{le=4}", 3.0,
                "latency.bucket{le=8}", 5.0, "latency.bucket{le=+Inf}", 5.0));
    }

    @Test
    void exponentialBoundsAtPositiveScale() {
        // scale 1: base √2; positive index -2 = (2^-1, 2^-0.5]: its upper bound is √0.5
        ExponentialHistogram.Builder e = ExponentialHistogram.newBuilder()
                .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE)
                .addDataPoints(ExponentialHistogramDataPoint.newBuilder().setTimeUnixNano(T1_NANOS).setScale(1)
                        .setCount(1).setPositive(ExponentialHistogramDataPoint.Buckets.newBuilder().setOffset(-2)
                                .addBucketCounts(1)));
        Map<String, Double> values = byName(map(request(metric("latency", e), "run", "r1"), null), "r1");
        assertThat(values).containsEntry("latency.bucket{le=" + Math.sqrt(0.5) + "}", 1.0)
                .containsEntry("latency.bucket{le=0}", 0.0).containsEntry("latency.bucket{le=+Inf}", 1.0);
    }

    @Test
    void summaryKeepsItsQuantilesNeverAveraged() {
        Summary.Builder s = Summary.newBuilder().addDataPoints(SummaryDataPoint.newBuilder()
                .setTimeUnixNano(T1_NANOS).setCount(10).setSum(1500)
                .addQuantileValues(SummaryDataPoint.ValueAtQuantile.newBuilder().setQuantile(0.5).setValue(120))
                .addQuantileValues(SummaryDataPoint.ValueAtQuantile.newBuilder().setQuantile(0.99).setValue(480)));
        List<Sample> samples = map(request(metric("rpc.duration", s), "run", "r1"), null).samplesByRun().get("r1");
        Sample summary = samples.getFirst();
        assertThat(summary.getKind()).isEqualTo(SampleKind.SUMMARY);
        assertThat(summary.getSummary().getWindow()).isEqualTo(SummaryWindow.WINDOW);
        assertThat(summary.getSummary().getQuantiles()).containsExactlyInAnyOrderEntriesOf(
                Map.of("0.5", 120.0, "0.99", 480.0));
        assertThat(summary.getValue()).isEqualTo(120.0); // the median: no mean reported
        assertThat(samples.subList(1, 3)).extracting(Sample::getMetric, Sample::getKind, Sample::getValue)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("rpc.duration.count", SampleKind.COUNTER, 10.0),
                        org.assertj.core.groups.Tuple.tuple("rpc.duration.sum", SampleKind.COUNTER, 1500.0));
    }

    @Test
    void aSummaryOfMoreQuantilesThanASampleMayCarryIsRejectedNamingTheField() {
        int limit = IngestLimits.DEFAULTS.sample().maxLabelsPerSample();
        Summary.Builder s = Summary.newBuilder();
        for (int n : new int[] {limit, limit + 1}) {
            SummaryDataPoint.Builder p = SummaryDataPoint.newBuilder().setTimeUnixNano(T1_NANOS).setCount(10);
            for (int i = 0; i < n; i++) {
                p.addQuantileValues(SummaryDataPoint.ValueAtQuantile.newBuilder().setQuantile((i + 1.0) / (n + 1))
                        .setValue(i));
            }
            s.addDataPoints(p);
        }
        RoutedSamples out = map(request(metric("rpc.duration", s), "run", "r1"), null);
        assertThat(out.samplesByRun().get("r1")).filteredOn(x -> x.getKind() == SampleKind.SUMMARY).singleElement()
                .satisfies(x -> assertThat(x.getSummary().getQuantiles()).hasSize(limit));
        assertThat(out.errors()).singleElement().satisfies(e -> {
            assertThat(e.line()).isEqualTo(2);
            assertThat(e.field()).isEqualTo("summary.quantiles");
            assertThat(e.reason()).contains((limit + 1) + " quantiles");
        });
    }

    @Test
    void anOversizedPointIsRejectedAndCountedTheOthersKept() {
        String huge = "x".repeat(IngestLimits.DEFAULTS.sample().maxLabelValueBytes() + 1);
        Gauge.Builder g = Gauge.newBuilder()
                .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(T1_NANOS).setAsDouble(1))
                .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(T1_NANOS).setAsDouble(2)
                        .addAttributes(kv("url", huge)))
                .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(T1_NANOS).setAsDouble(3));
        RoutedSamples out = map(request(metric("g", g), "run", "r1"), null);
        assertThat(out.samplesByRun().get("r1")).extracting(Sample::getValue).containsExactly(1.0, 3.0);
        assertThat(out.errors()).singleElement().satisfies(e -> {
            assertThat(e.line()).isEqualTo(2);
            assertThat(e.field()).isEqualTo("url");
        });
        assertThat(OtlpRejections.describe(out.errors())).startsWith("data point 2 (metric g), field url: label value");
    }

    @Test
    void runComesFromPointThenResourceThenDefaultAndIsRequired() {
        Gauge.Builder g = Gauge.newBuilder()
                .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(T1_NANOS).setAsDouble(1)
                        .addAttributes(kv("run", "from-point")))
                .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(T1_NANOS).setAsDouble(2));
        RoutedSamples withDefault = map(request(metric("g", g), "service.version", "1"), "from-url", null);
        assertThat(withDefault.samplesByRun().keySet()).containsExactly("from-point", "from-url");
        RoutedSamples.Builder out = new RoutedSamples.Builder();
        OtlpMetricsMapper.Mapped mapped = mapper.map(request(metric("g", g), "service.version", "1"), null, NOW,
                null, out);
        assertThat(mapped.withoutRun()).isEqualTo(1);
        assertThat(out.build().errors()).singleElement().satisfies(e ->
                assertThat(e.reason()).contains("caplab.run.id").contains("?run=").contains("X-Caplab-Run"));
    }

    @Test
    void malformedPointsAreRejectedAndStalenessMarkersSkipped() {
        Histogram.Builder h = Histogram.newBuilder()
                .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE)
                // 2 bounds need 3 counts
                .addDataPoints(HistogramDataPoint.newBuilder().setTimeUnixNano(T1_NANOS).setCount(3)
                        .addAllExplicitBounds(List.of(1.0, 2.0)).addAllBucketCounts(List.of(1L, 2L)))
                // "no recorded value": a staleness marker, not data and not an error
                .addDataPoints(HistogramDataPoint.newBuilder().setTimeUnixNano(T1_NANOS).setFlags(1))
                .addDataPoints(HistogramDataPoint.newBuilder().setTimeUnixNano(T1_NANOS).setCount(1)
                        .addAllExplicitBounds(List.of(1.0)).addAllBucketCounts(List.of(1L, 0L)));
        Sum.Builder unspecified = Sum.newBuilder().setIsMonotonic(true)
                .addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(T1_NANOS).setAsInt(1));
        RoutedSamples out = map(request(List.of(metric("h", h), metric("s", unspecified)), "run", "r1"), null);
        assertThat(out.errors()).extracting(e -> e.line() + " " + e.excerpt()).containsExactly("1 h", "3 s");
        assertThat(out.errors().getFirst().reason()).contains("2 bucket counts for 2 explicit bounds");
        assertThat(out.errors().getLast().reason()).contains("aggregation_temporality");
        assertThat(out.samplesByRun().get("r1")).extracting(Sample::getMetric)
                .containsExactly("h.count", "h.bucket", "h.bucket");
    }

    // --- helpers

    private RoutedSamples map(ExportMetricsServiceRequest request, DeltaTotals.Batch deltas) {
        return map(request, null, deltas);
    }

    private RoutedSamples map(ExportMetricsServiceRequest request, String defaultRun, DeltaTotals.Batch deltas) {
        RoutedSamples.Builder out = new RoutedSamples.Builder();
        mapper.map(request, defaultRun, NOW, deltas, out);
        return out.build();
    }

    static Sum.Builder deltaSum(long startNanos, long timeNanos, long value) {
        return Sum.newBuilder().setIsMonotonic(true)
                .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA)
                .addDataPoints(NumberDataPoint.newBuilder().setStartTimeUnixNano(startNanos)
                        .setTimeUnixNano(timeNanos).setAsInt(value));
    }

    static Sample only(RoutedSamples out, String run) {
        assertThat(out.errors()).isEmpty();
        assertThat(out.samplesByRun().get(run)).hasSize(1);
        return out.samplesByRun().get(run).getFirst();
    }

    /** metric{le=...} → value. */
    static Map<String, Double> byName(RoutedSamples out, String run) {
        assertThat(out.errors()).isEmpty();
        Map<String, Double> values = new LinkedHashMap<>();
        for (Sample s : out.samplesByRun().get(run)) {
            String le = s.getLabels().get("le");
            values.put(s.getMetric() + (le == null ? "" : "{le=" + le + "}"), s.getValue());
        }
        return values;
    }

    static KeyValue kv(String key, String value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setStringValue(value)).build();
    }

    static Metric metric(String name, Object data) {
        Metric.Builder m = Metric.newBuilder().setName(name);
        switch (data) {
            case Gauge.Builder g -> m.setGauge(g);
            case Sum.Builder s -> m.setSum(s);
            case Histogram.Builder h -> m.setHistogram(h);
            case ExponentialHistogram.Builder e -> m.setExponentialHistogram(e);
            case Summary.Builder s -> m.setSummary(s);
            default -> throw new IllegalArgumentException(data.toString());
        }
        return m.build();
    }

    static ExportMetricsServiceRequest request(Metric metric, String extraKey, String extraValue) {
        return request(List.of(metric), extraKey, extraValue);
    }

    /** One resource (service.name checkout, host.name h1, the SDK's attributes, one extra) holding the metrics. */
    static ExportMetricsServiceRequest request(List<Metric> metrics, String extraKey, String extraValue) {
        Resource resource = Resource.newBuilder().addAttributes(kv("service.name", "checkout"))
                .addAttributes(kv("host.name", "h1")).addAttributes(kv("telemetry.sdk.language", "java"))
                .addAttributes(kv(extraKey, extraValue)).build();
        return ExportMetricsServiceRequest.newBuilder().addResourceMetrics(ResourceMetrics.newBuilder()
                .setResource(resource).addScopeMetrics(ScopeMetrics.newBuilder().addAllMetrics(metrics))).build();
    }
}
