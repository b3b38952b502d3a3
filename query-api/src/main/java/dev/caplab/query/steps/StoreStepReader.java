package dev.caplab.query.steps;

import dev.caplab.query.format.Figures;
import dev.caplab.query.web.RequestReads;
import dev.caplab.schema.vocabulary.Statistics;
import dev.caplab.store.access.StepAggregateRepository;
import dev.caplab.store.access.StepRepository;
import dev.caplab.store.access.StepVerdictRepository;
import dev.caplab.store.row.RuleOutcomeValue;
import dev.caplab.store.row.StepAggregateRow;
import dev.caplab.store.row.StepRow;
import dev.caplab.store.row.StepVerdictRow;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.springframework.stereotype.Component;

/**
 * Steps with their verdicts, and step aggregates, through the store's repositories (latest versions); each read once
 * per request ({@link RequestReads}), and a run's aggregates of one metric or source taken from all of them when the
 * request read those already.
 */
@Component
class StoreStepReader implements StepReader {

    private static final String AGGREGATES = "step aggregates";

    private final StepRepository steps;
    private final StepVerdictRepository verdicts;
    private final StepAggregateRepository aggregates;

    StoreStepReader(DataSource dataSource) {
        this.steps = new StepRepository(dataSource);
        this.verdicts = new StepVerdictRepository(dataSource);
        this.aggregates = new StepAggregateRepository(dataSource);
    }

    /**
     * A run's steps are its declared ones once it has any, as streams' timeline has them: a verdict of a step
     * inferred from the load level before the declaration arrived, at an index no declared step has, belongs to a
     * step the run no longer has. Without declared steps, the judged (inferred) steps are the run's steps.
     */
    @Override
    public List<StepView> steps(String runId) {
        return RequestReads.once("steps", List.of(runId), () -> read(runId));
    }

    private List<StepView> read(String runId) {
        Map<Integer, StepRow> started = new TreeMap<>();
        steps.ofRun(runId).forEach(s -> started.put(s.stepIndex(), s));
        Map<Integer, StepVerdictRow> judged = new TreeMap<>();
        verdicts.ofRun(runId).forEach(v -> judged.put(v.stepIndex(), v));
        Set<Integer> indexes = started.isEmpty() ? judged.keySet() : started.keySet();
        return indexes.stream().map(i -> step(runId, i, started.get(i), judged.get(i))).toList();
    }

    private static StepView step(String runId, int stepIndex, StepRow s, StepVerdictRow v) {
        // an inferred step has no StepStarted row: its bounds are those its verdict was computed over
        Instant startedAt = s != null ? s.startedAt() : v.windowStart();
        Instant endedAt = s != null ? s.endedAt() : v.windowEnd();
        long warmupMicros = s != null ? s.warmupMicros() : v.warmupMicros() == null ? 0 : v.warmupMicros();
        boolean judged = v == null || v.judged();
        long late = v == null ? 0 : v.lateCount();
        return new StepView(runId, stepIndex, s != null ? s.load() : v.load(), v == null ? null : v.x(),
                startedAt, endedAt, warmupMicros / 1_000L, v == null || !judged ? null : v.passed(),
                v != null && v.contaminated(), v == null ? null : v.contaminationReason(),
                v == null ? null : v.bottleneck(), v == null ? null : failedRules(v.outcomes()), late,
                StepView.amended(late), judged);
    }

    /**
     * The names of the SLO rules a step broke, with what was observed in the rule metric's unit, e.g.
     * {@code p95-latency (observed 812 ms)}.
     */
    static String failedRules(List<RuleOutcomeValue> outcomes) {
        return outcomes.stream().filter(o -> !o.passed())
                .map(o -> o.rule().name() + (o.observed() == null ? ""
                        : " (observed " + Figures.quantity(o.rule().metric(), o.observed()) + ")"))
                .collect(Collectors.joining("; "));
    }

    /** An empty {@code metric} or {@code source} (e.g. {@code ?metric=}) does not filter. */
    @Override
    public List<StepAggregateView> aggregates(String runId, Optional<String> metric, Optional<String> source) {
        Optional<String> m = metric.filter(v -> !v.isEmpty());
        Optional<String> s = source.filter(v -> !v.isEmpty());
        List<StepAggregateView> all = RequestReads.kept(AGGREGATES, List.of(runId, Optional.empty(), Optional.empty()));
        if (all != null) {
            // the same rows in the same order as the store's filtered read
            return all.stream().filter(a -> m.map(a.metric()::equals).orElse(true)
                    && s.map(a.source()::equals).orElse(true)).toList();
        }
        return RequestReads.once(AGGREGATES, List.of(runId, m, s),
                () -> aggregates.ofRun(runId, m, s).stream().map(StoreStepReader::aggregate).toList());
    }

    private static StepAggregateView aggregate(StepAggregateRow a) {
        Map<String, Double> q = a.quantiles();
        return new StepAggregateView(a.runId(), a.stepIndex(), a.x(), a.source(), a.metric(), a.kind(),
                a.sampleCount(), a.warmupCount(), a.sustained(), a.peak(), a.valueMean(), a.valueMin(), a.valueMax(),
                q.get(Statistics.Q50), q.get(Statistics.Q90), q.get(Statistics.Q95), q.get(Statistics.Q99), a.ratePerSecond(), a.baselineDelta(),
                a.contaminated(), a.windowStart(), a.windowEnd(), a.lateCount());
    }
}
