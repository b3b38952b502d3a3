package dev.caplab.streams.run;

import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.Micros;
import dev.caplab.streams.aggregate.SeriesStats;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@link StepAggregate} rows a window emits (a step, the baseline, the unassigned seconds): one per series, or
 * the one row that says the window holds nothing any more.
 */
final class AggregateRows {

    private AggregateRows() {
    }

    /**
     * One series' row over {@code [from, to)}; a step's row ({@code index ≥ 0}) carries the series' delta from its
     * baseline when the run has one.
     */
    static DerivedEvent of(RunState.Mutable run, int index, Map<String, Double> load, Double x, SeriesStats s,
            long from, long to, boolean contaminated, long version, long lateCount) {
        Double base = index >= 0 ? run.baseline.get(baselineKey(s)) : null;
        return new DerivedEvent.Aggregate(StepAggregate.newBuilder().setRunId(run.runId).setStepIndex(index)
                .setLoad(load).setX(x)
                .setSource(s.source()).setMetric(s.metric()).setKind(s.kind()).setCount(s.count())
                .setWarmupCount(s.warmupCount()).setSum(s.sum()).setMin(s.min()).setMax(s.max()).setMean(s.mean())
                .setSustained(s.sustained()).setPeak(s.peak()).setQuantiles(new TreeMap<>(s.quantiles()))
                .setRatePerSecond(s.ratePerSecond())
                .setBaselineDelta(base == null || !Double.isFinite(s.sustained()) ? null : s.sustained() - base)
                .setWindowStart(Micros.toInstant(from)).setWindowEnd(Micros.toInstant(to))
                .setContaminated(contaminated).setVersion(version).setLateCount(lateCount).build());
    }

    /**
     * The row that says a window emitted before (a step that vanished, the baseline, the unassigned seconds) holds
     * no samples now ({@link MetricNames#EMPTY_WINDOW}), at the window's next revision. Readers keep a window's rows
     * of its newest revision only and drop this one ({@code StepAggregateRepository}), so the window's earlier rows
     * disappear from every answer.
     */
    static DerivedEvent emptied(RunState.Mutable run, int index, long revision, long atMicros) {
        return new DerivedEvent.Aggregate(StepAggregate.newBuilder().setRunId(run.runId).setStepIndex(index)
                .setLoad(Map.of()).setX(null).setSource(MetricNames.DERIVED_SOURCE)
                .setMetric(MetricNames.EMPTY_WINDOW).setKind(SampleKind.GAUGE).setCount(0)
                .setWarmupCount(0).setSum(0).setMin(0).setMax(0).setMean(0).setSustained(0).setPeak(0)
                .setQuantiles(Map.of()).setRatePerSecond(null).setBaselineDelta(null)
                .setWindowStart(Micros.toInstant(atMicros)).setWindowEnd(Micros.toInstant(atMicros))
                .setContaminated(false).setVersion(revision).setLateCount(0).build());
    }

    /** The key a series' baseline value is kept under in {@link RunState#baseline()}. */
    static String baselineKey(SeriesStats s) {
        return s.source() + '|' + s.metric();
    }
}
