package dev.caplab.query.runs;

import static dev.caplab.query.store.Columns.micros;
import static dev.caplab.query.store.Columns.nullableDouble;
import static dev.caplab.query.store.Columns.nullableLong;
import static dev.caplab.query.store.Columns.stringMap;

import dev.caplab.query.store.StoreTables;
import dev.caplab.store.measure.EgressMeasurement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Runs from the {@code runs} table; FINAL because a run's end is a newer version of the same row. */
@Repository
class JdbcRunReader implements RunReader {

    private final JdbcClient jdbc;
    private final String select;
    private final String measuredEgress;

    JdbcRunReader(DataSource dataSource, StoreTables tables) {
        this.jdbc = JdbcClient.create(dataSource);
        this.select = """
                SELECT run_id, toUnixTimestamp64Micro(started_at) AS started_us,
                       toUnixTimestamp64Micro(ended_at) AS ended_us, status, sut_name, sut_version, provider, region,
                       instance_type, tier, vcpu, memory_bytes, nominal_egress_mbps, measured_egress_mbps, tool,
                       load_expression, toJSONString(labels) AS labels_json, origin
                FROM %s FINAL
                """.formatted(tables.runs());
        this.measuredEgress = """
                SELECT argMax(value, ts) AS mbps, toUnixTimestamp64Micro(max(ts)) AS at_us
                FROM %s WHERE run_id = :runId AND %s
                HAVING count() > 0
                """.formatted(tables.samples(), EgressMeasurement.SQL_PREDICATE);
    }

    @Override
    public Optional<EgressCeiling.Measured> measuredEgress(String runId) {
        return jdbc.sql(measuredEgress).param("runId", runId).query((rs, n) -> new EgressCeiling.Measured(
                rs.getDouble("mbps"), micros(rs, "at_us"))).optional();
    }

    @Override
    public List<RunSummary> find(RunFilter f) {
        List<String> where = new ArrayList<>();
        Map<String, Object> params = new LinkedHashMap<>();
        equal(where, params, "sut_name", "sut", f.sut());
        equal(where, params, "sut_version", "version", f.version());
        equal(where, params, "provider", "provider", f.provider());
        equal(where, params, "region", "region", f.region());
        equal(where, params, "tier", "tier", f.tier());
        equal(where, params, "tool", "tool", f.tool());
        int i = 0;
        for (Map.Entry<String, String> label : f.labels().entrySet()) {
            where.add("labels[:labelKey" + i + "] = :labelValue" + i);
            params.put("labelKey" + i, label.getKey());
            params.put("labelValue" + i, label.getValue());
            i++;
        }
        if (f.from() != null) {
            where.add("started_at >= fromUnixTimestamp64Micro(toInt64(:fromMicros), 'UTC')");
            params.put("fromMicros", toMicros(f.from()));
        }
        if (f.to() != null) {
            where.add("started_at < fromUnixTimestamp64Micro(toInt64(:toMicros), 'UTC')");
            params.put("toMicros", toMicros(f.to()));
        }
        String sql = select + (where.isEmpty() ? "" : "WHERE " + String.join(" AND ", where) + "\n")
                + "ORDER BY started_at DESC, run_id LIMIT :limit OFFSET :offset";
        params.put("limit", f.limit());
        params.put("offset", f.offset());
        return jdbc.sql(sql).params(params).query((rs, n) -> row(rs)).list();
    }

    @Override
    public Optional<RunSummary> get(String runId) {
        return jdbc.sql(select + "WHERE run_id = :runId").param("runId", runId).query((rs, n) -> row(rs)).optional();
    }

    @Override
    public List<RunSummary> getAll(List<String> runIds) {
        if (runIds.isEmpty()) {
            return List.of();
        }
        Map<String, RunSummary> byId = jdbc.sql(select + "WHERE run_id IN (:runIds)").param("runIds", runIds)
                .query((rs, n) -> row(rs)).list().stream()
                .collect(Collectors.toMap(RunSummary::runId, Function.identity(), (a, b) -> a));
        return runIds.stream().filter(byId::containsKey).map(byId::get).toList();
    }

    private static void equal(List<String> where, Map<String, Object> params, String column, String name,
                              String value) {
        if (value != null && !value.isEmpty()) {
            where.add(column + " = :" + name);
            params.put(name, value);
        }
    }

    private static long toMicros(java.time.Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000L);
    }

    private static RunSummary row(ResultSet rs) throws SQLException {
        return new RunSummary(rs.getString("run_id"), micros(rs, "started_us"), micros(rs, "ended_us"),
                rs.getString("status"), rs.getString("sut_name"), rs.getString("sut_version"),
                rs.getString("provider"), rs.getString("region"), rs.getString("instance_type"), rs.getString("tier"),
                nullableDouble(rs, "vcpu"), nullableLong(rs, "memory_bytes"),
                nullableDouble(rs, "nominal_egress_mbps"), nullableDouble(rs, "measured_egress_mbps"),
                rs.getString("tool"), rs.getString("load_expression"), stringMap(rs, "labels_json"),
                rs.getString("origin"));
    }
}
