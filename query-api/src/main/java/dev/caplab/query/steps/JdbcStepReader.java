package dev.caplab.query.steps;

import static dev.caplab.query.store.Columns.doubleMap;
import static dev.caplab.query.store.Columns.json;
import static dev.caplab.query.store.Columns.micros;
import static dev.caplab.query.store.Columns.nullableDouble;

import dev.caplab.query.store.StoreTables;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;

/** Steps joined with their verdicts, and step aggregates, from the store; FINAL keeps the highest version. */
@Repository
class JdbcStepReader implements StepReader {

    private static final TypeReference<List<Map<String, Object>>> OUTCOMES = new TypeReference<>() { };

    private final JdbcClient jdbc;
    private final String stepsSql;
    private final String aggregatesSql;

    JdbcStepReader(DataSource dataSource, StoreTables tables) {
        this.jdbc = JdbcClient.create(dataSource);
        // A verdict may exist for a step whose StepStarted is still in flight, and vice versa: full join on the key.
        this.stepsSql = """
                SELECT if(s.run_id = '', v.run_id, s.run_id) AS run_id,
                       if(s.run_id = '', v.step_index, s.step_index) AS step_index,
                       toJSONString(if(s.run_id = '', v.load, s.load)) AS load_json, v.x AS x,
                       v.run_id != '' AS has_verdict, v.passed AS passed, v.contaminated AS contaminated,
                       v.contamination_reason AS contamination_reason, v.bottleneck AS bottleneck,
                       v.outcomes_json AS outcomes_json, v.late_count AS late_count,
                       if(s.run_id = '', NULL, toUnixTimestamp64Micro(s.started_at)) AS started_us,
                       toUnixTimestamp64Micro(s.ended_at) AS ended_us, s.warmup_micros AS warmup_micros
                FROM (SELECT * FROM %s FINAL WHERE run_id = :runId) AS s
                FULL OUTER JOIN (SELECT * FROM %s FINAL WHERE run_id = :runId) AS v
                  ON s.run_id = v.run_id AND s.step_index = v.step_index
                ORDER BY step_index
                SETTINGS join_use_nulls = 0
                """.formatted(tables.steps(), tables.stepVerdicts());
        this.aggregatesSql = """
                SELECT run_id, step_index, x, source, metric, kind, sample_count, warmup_count, sustained, peak,
                       value_mean, value_min, value_max, quantiles['0.5'] AS p50, quantiles['0.9'] AS p90,
                       quantiles['0.95'] AS p95, quantiles['0.99'] AS p99,
                       mapContains(quantiles, '0.5') AS has_p50, mapContains(quantiles, '0.9') AS has_p90,
                       mapContains(quantiles, '0.95') AS has_p95, mapContains(quantiles, '0.99') AS has_p99,
                       rate_per_second, baseline_delta, contaminated, late_count,
                       toUnixTimestamp64Micro(window_start) AS start_us, toUnixTimestamp64Micro(window_end) AS end_us
                FROM %s FINAL
                WHERE run_id = :runId AND (:metric = '' OR metric = :metric) AND (:source = '' OR source = :source)
                ORDER BY step_index, metric, source
                """.formatted(tables.stepAggregates());
    }

    @Override
    public List<StepView> steps(String runId) {
        return jdbc.sql(stepsSql).param("runId", runId).query((rs, n) -> step(rs)).list();
    }

    @Override
    public List<StepAggregateView> aggregates(String runId, Optional<String> metric, Optional<String> source) {
        return jdbc.sql(aggregatesSql).param("runId", runId).param("metric", metric.orElse(""))
                .param("source", source.orElse("")).query((rs, n) -> aggregate(rs)).list();
    }

    private static StepView step(ResultSet rs) throws SQLException {
        boolean hasVerdict = rs.getBoolean("has_verdict");
        return new StepView(rs.getString("run_id"), rs.getInt("step_index"), doubleMap(rs, "load_json"),
                nullableDouble(rs, "x"), micros(rs, "started_us"), micros(rs, "ended_us"),
                rs.getLong("warmup_micros") / 1_000L, hasVerdict ? rs.getBoolean("passed") : null,
                hasVerdict && rs.getBoolean("contaminated"), rs.getString("contamination_reason"),
                rs.getString("bottleneck"), hasVerdict ? failedRules(rs.getString("outcomes_json")) : null,
                hasVerdict ? rs.getLong("late_count") : 0);
    }

    /** The names of the SLO rules a step broke, with what was observed, e.g. {@code p95-latency (observed 812.0)}. */
    static String failedRules(String outcomesJson) {
        List<Map<String, Object>> outcomes = json(outcomesJson, OUTCOMES, "outcomes_json");
        if (outcomes == null) {
            return "";
        }
        return outcomes.stream().filter(o -> Boolean.FALSE.equals(o.get("passed")))
                .map(o -> ruleName(o) + (o.get("observed") == null ? "" : " (observed " + o.get("observed") + ")"))
                .collect(Collectors.joining("; "));
    }

    private static String ruleName(Map<String, Object> outcome) {
        return outcome.get("rule") instanceof Map<?, ?> rule && rule.get("name") != null ? rule.get("name").toString()
                : "rule";
    }

    private static StepAggregateView aggregate(ResultSet rs) throws SQLException {
        return new StepAggregateView(rs.getString("run_id"), rs.getInt("step_index"), nullableDouble(rs, "x"),
                rs.getString("source"), rs.getString("metric"), rs.getString("kind"), rs.getLong("sample_count"),
                rs.getLong("warmup_count"), rs.getDouble("sustained"), rs.getDouble("peak"),
                rs.getDouble("value_mean"), rs.getDouble("value_min"), rs.getDouble("value_max"),
                quantile(rs, "p50"), quantile(rs, "p90"), quantile(rs, "p95"), quantile(rs, "p99"),
                nullableDouble(rs, "rate_per_second"), nullableDouble(rs, "baseline_delta"),
                rs.getBoolean("contaminated"), micros(rs, "start_us"), micros(rs, "end_us"), rs.getLong("late_count"));
    }

    private static Double quantile(ResultSet rs, String name) throws SQLException {
        return rs.getBoolean("has_" + name) ? rs.getDouble(name) : null;
    }
}
