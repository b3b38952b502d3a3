package dev.caplab.ingest.remotewrite;

import static dev.caplab.ingest.remotewrite.WriteRequests.sample;
import static dev.caplab.ingest.remotewrite.WriteRequests.series;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.remotewrite.SeriesMapper.DefaultRun;
import dev.caplab.ingest.remotewrite.prompb.Remote.WriteRequest;
import dev.caplab.ingest.remotewrite.prompb.Types.BucketSpan;
import dev.caplab.ingest.remotewrite.prompb.Types.Histogram;
import dev.caplab.ingest.remotewrite.prompb.Types.MetricMetadata;
import dev.caplab.ingest.remotewrite.prompb.Types.MetricMetadata.MetricType;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SeriesMapperTest {

    private static final long T0 = 1_700_000_000_000L;
    private static final Instant NOW = Instant.ofEpochMilli(T0 + 60_000);
    private static final DefaultRun PARAM = new DefaultRun("run-param", "run");
    private static final DefaultRun NONE = new DefaultRun(null, "run");

    private final SeriesMapper mapper = new SeriesMapper(new SampleChecks(IngestLimits.DEFAULTS),
            new MetricFamilies());

    @Test
    void countersAndGaugesKeepNameAndLabelsWithSourceFromInstance() {
        WriteRequest request = WriteRequest.newBuilder()
                .addTimeseries(series("__name__", "node_cpu_seconds_total", "cpu", "0", "instance", "sut:9100",
                        "job", "node", "mode", "user").addSamples(sample(12.5, T0)).addSamples(sample(13.5, T0 + 1000)))
                .addTimeseries(series("__name__", "node_load1", "instance", "sut:9100", "job", "node")
                        .addSamples(sample(0.75, T0)))
                .addTimeseries(series("__name__", "up", "job", "node").addSamples(sample(1, T0)))
                .build();

        RemoteWriteResult result = mapper.map(request, PARAM, NOW);

        assertThat(result.routed().hasErrors()).isFalse();
        List<Sample> samples = result.routed().samplesByRun().get("run-param");
        assertThat(samples).extracting(Sample::getMetric, Sample::getKind, Sample::getValue, Sample::getSource,
                Sample::getTimestamp).containsExactly(
                tuple("node_cpu_seconds_total", SampleKind.COUNTER, 12.5, "sut:9100", Instant.ofEpochMilli(T0)),
                tuple("node_cpu_seconds_total", SampleKind.COUNTER, 13.5, "sut:9100", Instant.ofEpochMilli(T0 + 1000)),
                tuple("node_load1", SampleKind.GAUGE, 0.75, "sut:9100", Instant.ofEpochMilli(T0)),
                tuple("up", SampleKind.GAUGE, 1.0, "node", Instant.ofEpochMilli(T0)));
        assertThat(samples.getFirst().getLabels()).containsExactlyInAnyOrderEntriesOf(
                Map.of("cpu", "0", "mode", "user", "instance", "sut:9100", "job", "node"));
    }

    @Test
    void theRunLabelBeatsTheParameterAndIsConsumed() {
        WriteRequest request = WriteRequest.newBuilder()
                .addTimeseries(series("__name__", "up", "run", "run-label", "source", "sut-1", "instance", "a:1")
                        .addSamples(sample(1, T0)))
                .addTimeseries(series("__name__", "up", "instance", "a:1").addSamples(sample(1, T0)))
                .build();

        RemoteWriteResult result = mapper.map(request, PARAM, NOW);

        Sample labelled = result.routed().samplesByRun().get("run-label").getFirst();
        assertThat(labelled.getSource()).isEqualTo("sut-1");
        assertThat(labelled.getLabels()).containsExactly(Map.entry("instance", "a:1"));
        assertThat(result.routed().samplesByRun().get("run-param")).hasSize(1);
    }

    @Test
    void aSeriesWithoutARunIsRejectedByNameAndTheOthersAreKept() {
        WriteRequest request = WriteRequest.newBuilder()
                .addTimeseries(series("__name__", "up", "run", "r1").addSamples(sample(1, T0)))
                .addTimeseries(series("__name__", "node_load1", "instance", "a:1").addSamples(sample(0.5, T0)))
                .build();

        RemoteWriteResult result = mapper.map(request, NONE, NOW);

        assertThat(result.routed().samplesByRun()).containsOnlyKeys("r1");
        assertThat(result.routed().errors()).extracting(ParseError::line, ParseError::field)
                .containsExactly(tuple(2L, "run"));
        assertThat(result.describeRejections())
                .startsWith("rejected 1 of 2 series (every other series was stored: 1 samples): "
                        + "series 2 node_load1{instance=\"a:1\"}, field run: no run id: add a 'run' label")
                .contains("?run= URL parameter or the X-Caplab-Run header");
    }

    @Test
    void aSeriesWithOneBadSampleIsRejectedWhole() {
        long farFuture = NOW.plusSeconds(3 * 86_400).toEpochMilli();
        WriteRequest request = WriteRequest.newBuilder()
                .addTimeseries(series("__name__", "http_requests_total").addSamples(sample(1, T0))
                        .addSamples(sample(2, farFuture)))
                .addTimeseries(series("job", "no-name").addSamples(sample(1, T0)))
                .addTimeseries(series("__name__", "ok").addSamples(sample(3, T0)))
                .build();

        RemoteWriteResult result = mapper.map(request, PARAM, NOW);

        assertThat(result.routed().samplesByRun().get("run-param")).extracting(Sample::getMetric)
                .containsExactly("ok");
        assertThat(result.routed().errors()).extracting(ParseError::line, ParseError::field)
                .containsExactly(tuple(1L, "timestamp"), tuple(2L, "__name__"));
        assertThat(result.describeRejections()).contains("series 1 http_requests_total{}, field timestamp: ");
    }

    @Test
    void classicHistogramSeriesAreCountersWithTheirLe() {
        WriteRequest request = WriteRequest.newBuilder()
                .addTimeseries(series("__name__", "rpc_seconds_bucket", "le", "0.25").addSamples(sample(7, T0)))
                .addTimeseries(series("__name__", "rpc_seconds_bucket", "le", "+Inf").addSamples(sample(9, T0)))
                .addTimeseries(series("__name__", "rpc_seconds_sum").addSamples(sample(1.75, T0)))
                .addTimeseries(series("__name__", "rpc_seconds_count").addSamples(sample(9, T0)))
                .build();

        List<Sample> samples = mapper.map(request, PARAM, NOW).routed().samplesByRun().get("run-param");

        assertThat(samples).extracting(Sample::getMetric, Sample::getKind, Sample::getValue).containsExactly(
                tuple("rpc_seconds_bucket", SampleKind.COUNTER, 7.0),
                tuple("rpc_seconds_bucket", SampleKind.COUNTER, 9.0),
                tuple("rpc_seconds_sum", SampleKind.COUNTER, 1.75),
                tuple("rpc_seconds_count", SampleKind.COUNTER, 9.0));
        assertThat(samples.get(0).getLabels()).containsExactly(Map.entry("le", "0.25"));
        assertThat(samples.get(1).getLabels()).containsExactly(Map.entry("le", "+Inf"));
    }

    @Test
    void declaredMetadataDecidesAndIsRememberedForLaterRequests() {
        // Prometheus sends metadata in a request of its own
        mapper.map(WriteRequest.newBuilder().addMetadata(MetricMetadata.newBuilder()
                .setMetricFamilyName("queue_depth_count").setType(MetricType.GAUGE)).addMetadata(MetricMetadata
                .newBuilder().setMetricFamilyName("jobs_done").setType(MetricType.COUNTER)).build(), PARAM, NOW);

        List<Sample> samples = mapper.map(WriteRequest.newBuilder()
                .addTimeseries(series("__name__", "queue_depth_count").addSamples(sample(4, T0)))
                .addTimeseries(series("__name__", "jobs_done").addSamples(sample(40, T0)))
                .build(), PARAM, NOW).routed().samplesByRun().get("run-param");

        assertThat(samples).extracting(Sample::getMetric, Sample::getKind).containsExactly(
                tuple("queue_depth_count", SampleKind.GAUGE), tuple("jobs_done", SampleKind.COUNTER));
    }

    @Test
    void summaryQuantilesOfOneInstantBecomeOneSummarySample() {
        WriteRequest request = WriteRequest.newBuilder()
                .addTimeseries(series("__name__", "gc_seconds", "quantile", "0.5", "job", "app")
                        .addSamples(sample(0.002, T0)))
                .addTimeseries(series("__name__", "gc_seconds", "quantile", "0.990", "job", "app")
                        .addSamples(sample(0.02, T0)))
                .addTimeseries(series("__name__", "gc_seconds", "quantile", "1", "job", "app")
                        .addSamples(sample(Double.NaN, T0)))
                .build();

        RemoteWriteResult result = mapper.map(request, PARAM, NOW);

        List<Sample> samples = result.routed().samplesByRun().get("run-param");
        assertThat(samples).hasSize(1);
        Sample summary = samples.getFirst();
        assertThat(summary.getKind()).isEqualTo(SampleKind.SUMMARY);
        assertThat(summary.getSummary().getQuantiles()).containsExactlyInAnyOrderEntriesOf(
                Map.of("0.5", 0.002, "0.99", 0.02));
        assertThat(summary.getValue()).isEqualTo(0.002);
        assertThat(result.nanValues()).isEqualTo(1);
    }

    @Test
    void staleMarkersAreCountedAndNeverStored() {
        double stale = Double.longBitsToDouble(0x7ff0000000000002L);
        Histogram staleHistogram = Histogram.newBuilder().setSum(stale).setTimestamp(T0 + 2000).build();
        WriteRequest request = WriteRequest.newBuilder()
                .addTimeseries(series("__name__", "node_load1").addSamples(sample(0.5, T0))
                        .addSamples(sample(stale, T0 + 1000)))
                .addTimeseries(series("__name__", "rpc_seconds").addHistograms(staleHistogram))
                .build();

        RemoteWriteResult result = mapper.map(request, PARAM, NOW);

        assertThat(result.routed().samplesByRun().get("run-param")).extracting(Sample::getValue)
                .containsExactly(0.5);
        assertThat(result.staleMarkers()).isEqualTo(2);
        assertThat(result.nanValues()).isZero();
        assertThat(result.routed().hasErrors()).isFalse();
    }

    /** Same histogram as NativeHistogramTest's worked example, positive side only: buckets 0, 1, 3 hold 3, 2, 4. */
    @Test
    void nativeHistogramsBecomeCountSumAndCumulativeBucketCounters() {
        Histogram h = Histogram.newBuilder().setCountInt(9).setSum(20).setSchema(0).setTimestamp(T0)
                .addPositiveSpans(BucketSpan.newBuilder().setOffset(0).setLength(2))
                .addPositiveSpans(BucketSpan.newBuilder().setOffset(1).setLength(1))
                .addAllPositiveDeltas(List.of(3L, -1L, 2L)).build();
        WriteRequest request = WriteRequest.newBuilder()
                .addTimeseries(series("__name__", "rpc_seconds", "job", "app").addHistograms(h)).build();

        List<Sample> samples = mapper.map(request, PARAM, NOW).routed().samplesByRun().get("run-param");

        assertThat(samples).extracting(Sample::getMetric, s -> s.getLabels().get("le"), Sample::getValue)
                .containsExactly(
                        tuple("rpc_seconds_count", null, 9.0),
                        tuple("rpc_seconds_sum", null, 20.0),
                        tuple("rpc_seconds_bucket", "1", 3.0),
                        tuple("rpc_seconds_bucket", "2", 5.0),
                        tuple("rpc_seconds_bucket", "8", 9.0),
                        tuple("rpc_seconds_bucket", "+Inf", 9.0));
        assertThat(samples).allSatisfy(s -> {
            assertThat(s.getKind()).isEqualTo(SampleKind.COUNTER);
            assertThat(s.getSource()).isEqualTo("app");
            assertThat(s.getTimestamp()).isEqualTo(Instant.ofEpochMilli(T0));
        });
    }

    @Test
    void histogramsAreCountedAgainstTheSampleLimitBeforeAnyIsExpanded() {
        // each field within the per-field limit, together 2 x 300,004 samples: over the 500,000 a request may carry
        Histogram histogram = Histogram.newBuilder().setSchema(0)
                .addPositiveSpans(BucketSpan.newBuilder().setLength(300_000))
                .addAllPositiveDeltas(java.util.Collections.nCopies(300_000, 0L)).build();
        WriteRequest request = WriteRequest.newBuilder().addTimeseries(series("__name__", "h", "run", "r")
                .addHistograms(histogram).addHistograms(histogram)).build();
        long before = allocatedBytes();

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> mapper.map(request, NONE, Instant.now()))
                .isInstanceOf(dev.caplab.ingest.census.TooManyValuesException.class)
                .hasMessageStartingWith("timeseries[0].histograms[1]: the request expands to more than 500000 "
                        + "samples");
        assertThat(allocatedBytes() - before).as("bytes allocated refusing it").isLessThan(1024 * 1024);
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
                .getCurrentThreadAllocatedBytes();
    }
}
