package dev.caplab.ingest.remotewrite;

import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.ingest.adapter.QuantileKeys;
import dev.caplab.schema.sample.Samples;
import dev.caplab.ingest.census.ExpansionBudget;
import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.ingest.publish.RunTags;
import dev.caplab.ingest.remotewrite.prompb.Remote.WriteRequest;
import dev.caplab.ingest.remotewrite.prompb.Types.Histogram;
import dev.caplab.ingest.remotewrite.prompb.Types.Label;
import dev.caplab.ingest.remotewrite.prompb.Types.TimeSeries;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SummaryStats;
import dev.caplab.schema.event.SummaryWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A decoded remote write request to caplab samples, series by series. Names are kept verbatim ({@code __name__});
 * the run is the series' {@code run} (or {@code run_id}) label, else the request's default ({@code ?run=}, else the
 * {@code X-Caplab-Run} header); the source is the {@code source} label, else {@code instance}, else {@code job}, else
 * "prometheus"; {@code run}, {@code run_id} and {@code source} are consumed, every other label ({@code instance} and
 * {@code job} included) is kept. Float series become COUNTER, GAUGE or SUMMARY samples ({@link SeriesKind}); native
 * histograms become {@code _count}, {@code _sum} and cumulative {@code _bucket{le}} counters ({@link NativeHistogram}).
 * Stale markers (the NaN {@code 0x7ff0000000000002}) say a series ended: they are counted, never stored; so are other
 * NaN values (no observation). Every sample passes {@link SampleChecks}; a series with a bad sample is rejected whole
 * and named in the errors, every other series is kept.
 */
public final class SeriesMapper {

    public static final String DEFAULT_SOURCE = "prometheus";
    static final String NAME_LABEL = "__name__";
    static final String INSTANCE = "instance";
    static final String JOB = "job";
    /** Prometheus' staleness marker, {@code value.StaleNaN} (a NaN no arithmetic produces). */
    static final long STALE_NAN_BITS = 0x7ff0000000000002L;

    private final SampleChecks checks;
    private final MetricFamilies families;

    public SeriesMapper(SampleChecks checks, MetricFamilies families) {
        this.checks = Objects.requireNonNull(checks, "checks");
        this.families = Objects.requireNonNull(families, "families");
    }

    /**
     * Maps every series of {@code request}; {@code defaultRun} is used for series without a run label.
     * Throws {@link RoutedSamples.TooManySamplesException} past the request's sample limit.
     */
    public RemoteWriteResult map(WriteRequest request, DefaultRun defaultRun, Instant now) {
        families.learn(request.getMetadataList());
        RoutedSamples.Builder out = new RoutedSamples.Builder(checks.limits().maxSamplesPerRequest());
        count(request, new ExpansionBudget(checks.limits()));
        Counts counts = new Counts();
        Map<SummaryKey, SummaryGroup> summaries = new LinkedHashMap<>();
        for (int i = 0; i < request.getTimeseriesCount(); i++) {
            TimeSeries series = request.getTimeseries(i);
            int position = i + 1;
            try {
                Mapped mapped = mapSeries(series, defaultRun, now, counts);
                mapped.samples().forEach(s -> out.add(mapped.runId(), s));
                mapped.quantiles().forEach(q -> summaries.computeIfAbsent(q.key(), k -> new SummaryGroup(position,
                        text(series))).quantiles.put(q.quantile(), q.value()));
            } catch (SeriesException e) {
                out.error(new ParseError(position, e.field(), e.getMessage(), text(series)));
            } catch (SampleChecks.LimitException e) {
                out.error(new ParseError(position, e.field(), e.reason(), text(series)));
            }
        }
        for (Map.Entry<SummaryKey, SummaryGroup> e : summaries.entrySet()) {
            SummaryKey key = e.getKey();
            SummaryStats stats = SummaryStats.newBuilder().setWindow(SummaryWindow.WINDOW)
                    .setQuantiles(e.getValue().quantiles).build();
            Sample summary = Samples.summary(key.at(), key.source(), key.name(), stats, key.labels());
            try {
                checks.check(summary, now);
                out.add(key.runId(), summary);
            } catch (SampleChecks.LimitException ex) {
                out.error(new ParseError(e.getValue().series, ex.field(), ex.reason(), e.getValue().text));
            }
        }
        return new RemoteWriteResult(out.build(), request.getTimeseriesCount(), counts.stale, counts.nan);
    }

    /**
     * Counts what {@code request} expands to before any of it is built: a series' samples, and per native histogram
     * its count, sum, zero and +Inf buckets and one bucket per delta (or count) given, each with the series' labels
     * and {@code le}. The spans must cover exactly the buckets given ({@link NativeHistogram}), so what spans declare
     * beyond the given counts is refused before anything is built too.
     */
    static void count(WriteRequest request, ExpansionBudget budget) {
        for (int i = 0; i < request.getTimeseriesCount(); i++) {
            TimeSeries series = request.getTimeseries(i);
            String field = "timeseries[" + i + "]";
            int labels = series.getLabelsCount();
            budget.add(field + ".samples", series.getSamplesCount(), labels);
            for (int h = 0; h < series.getHistogramsCount(); h++) {
                Histogram histogram = series.getHistograms(h);
                long buckets = 4L + histogram.getPositiveDeltasCount() + histogram.getPositiveCountsCount()
                        + histogram.getNegativeDeltasCount() + histogram.getNegativeCountsCount();
                budget.add(field + ".histograms[" + h + "]", buckets, labels + 1L);
            }
        }
    }

    private Mapped mapSeries(TimeSeries series, DefaultRun defaultRun, Instant now, Counts counts) {
        Map<String, String> labels = new LinkedHashMap<>();
        String name = null;
        for (Label label : series.getLabelsList()) {
            if (label.getName().equals(NAME_LABEL)) {
                name = label.getValue();
            } else {
                labels.put(label.getName(), label.getValue());
            }
        }
        if (name == null || name.isBlank()) {
            throw new SeriesException(NAME_LABEL, "a series needs a metric name (label __name__)");
        }
        checks.name(SampleChecks.METRIC_FIELD, name);
        String runId = RunTags.runOf(labels, defaultRun.runId());
        if (runId == null) {
            throw new SeriesException(SampleChecks.RUN_FIELD, "no run id: add a 'run' label (external_labels or "
                    + "write_relabel_configs), the ?run= URL parameter or the X-Caplab-Run header");
        }
        checks.name(labels.containsKey(LabelNames.RUN) ? LabelNames.RUN : labels.containsKey(LabelNames.RUN_ID)
                ? LabelNames.RUN_ID : defaultRun.field(), runId);
        String source = sourceOf(labels);
        labels.remove(LabelNames.RUN);
        labels.remove(LabelNames.RUN_ID);
        labels.remove(LabelNames.SOURCE);

        List<Sample> samples = new ArrayList<>();
        List<Quantile> quantiles = new ArrayList<>();
        SeriesKind kind = series.getSamplesCount() == 0 ? SeriesKind.GAUGE
                : SeriesKind.of(name, labels, families.typeOf(name));
        for (var point : series.getSamplesList()) {
            double value = point.getValue();
            if (Double.isNaN(value)) {
                counts.count(value);
                continue;
            }
            Instant at = Instant.ofEpochMilli(point.getTimestamp());
            if (kind == SeriesKind.QUANTILE) {
                quantiles.add(quantile(runId, source, name, labels, at, value, now));
            } else {
                samples.add(checked(kind == SeriesKind.COUNTER ? Samples.counter(at, source, name, value, labels)
                        : Samples.gauge(at, source, name, value, labels), now));
            }
        }
        for (Histogram h : series.getHistogramsList()) {
            if (Double.isNaN(h.getSum()) && Double.doubleToRawLongBits(h.getSum()) == STALE_NAN_BITS) {
                counts.stale++;
                continue;
            }
            histogram(NativeHistogram.of(h), Instant.ofEpochMilli(h.getTimestamp()), source, name, labels, now,
                    samples);
        }
        return new Mapped(runId, samples, quantiles);
    }

    private void histogram(NativeHistogram h, Instant at, String source, String name, Map<String, String> labels,
            Instant now, List<Sample> out) {
        out.add(checked(total(h.gauge(), at, source, name + "_count", h.count(), labels), now));
        if (!Double.isNaN(h.sum())) {
            out.add(checked(total(h.gauge(), at, source, name + "_sum", h.sum(), labels), now));
        }
        for (NativeHistogram.Bucket bucket : h.buckets()) {
            Map<String, String> withLe = new LinkedHashMap<>(labels);
            withLe.put(SeriesKind.LE, LeLabel.format(bucket.upperBound()));
            out.add(checked(total(h.gauge(), at, source, name + "_bucket", bucket.cumulativeCount(), withLe), now));
        }
    }

    private static Sample total(boolean gauge, Instant at, String source, String metric, double value,
            Map<String, String> labels) {
        return gauge ? Samples.gauge(at, source, metric, value, labels)
                : Samples.counter(at, source, metric, value, labels);
    }

    private Quantile quantile(String runId, String source, String name, Map<String, String> labels, Instant at,
            double value, Instant now) {
        Map<String, String> rest = new LinkedHashMap<>(labels);
        String fraction = rest.remove(LabelNames.QUANTILE);
        String key;
        try {
            key = QuantileKeys.fromFraction(fraction);
        } catch (NumberFormatException e) {
            throw new SeriesException(LabelNames.QUANTILE, "not a quantile in [0,1]: '" + fraction + "'");
        }
        checked(Samples.gauge(at, source, name, value, rest), now);
        return new Quantile(new SummaryKey(runId, source, name, rest, at), key, value);
    }

    private Sample checked(Sample sample, Instant now) {
        checks.check(sample, now);
        return sample;
    }

    /** {@code source}, else {@code instance} (the scraped host:port), else {@code job}, else "prometheus". */
    static String sourceOf(Map<String, String> labels) {
        for (String key : List.of(LabelNames.SOURCE, INSTANCE, JOB)) {
            String value = labels.get(key);
            if (value != null && !value.isBlank()) {
                return value;
            }
        }
        return DEFAULT_SOURCE;
    }

    /** {@code node_cpu_seconds_total{cpu="0",mode="idle",instance="127.0.0.1:9100"}}, as PromQL writes a series. */
    static String text(TimeSeries series) {
        String name = series.getLabelsList().stream().filter(l -> l.getName().equals(NAME_LABEL))
                .map(Label::getValue).findFirst().orElse("");
        return name + series.getLabelsList().stream().filter(l -> !l.getName().equals(NAME_LABEL))
                .map(l -> l.getName() + "=\"" + l.getValue() + "\"").collect(Collectors.joining(",", "{", "}"));
    }

    /** The run of series without a run label, and where it came from ({@code run} parameter or header). */
    public record DefaultRun(String runId, String field) {

        public DefaultRun {
            Objects.requireNonNull(field, "field");
        }
    }

    private record Mapped(String runId, List<Sample> samples, List<Quantile> quantiles) {
    }

    private record Quantile(SummaryKey key, String quantile, double value) {
    }

    /** The quantile series of one summary at one instant, which together make one SUMMARY sample. */
    private record SummaryKey(String runId, String source, String name, Map<String, String> labels, Instant at) {
    }

    private static final class SummaryGroup {
        final int series;
        final String text;
        final Map<String, Double> quantiles = new LinkedHashMap<>();

        SummaryGroup(int series, String text) {
            this.series = series;
            this.text = text;
        }
    }

    private static final class Counts {
        int stale;
        int nan;

        void count(double nanValue) {
            if (Double.doubleToRawLongBits(nanValue) == STALE_NAN_BITS) {
                stale++;
            } else {
                nan++;
            }
        }
    }
}
