package dev.caplab.query.fits;

import static dev.caplab.query.store.Columns.json;
import static dev.caplab.query.store.Columns.micros;
import static dev.caplab.query.store.Columns.nullableDouble;
import static dev.caplab.query.store.Columns.nullableInt;

import dev.caplab.query.store.StoreTables;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;

/** The latest fit per (run, metric, source) from {@code capacity_fits}; segments and breakpoints are Avro JSON. */
@Repository
class JdbcFitReader implements FitReader {

    private static final TypeReference<List<FitView.Segment>> SEGMENTS = new TypeReference<>() { };
    private static final TypeReference<List<FitView.Breakpoint>> BREAKPOINTS = new TypeReference<>() { };

    private final JdbcClient jdbc;
    private final String sql;

    JdbcFitReader(DataSource dataSource, StoreTables tables) {
        this.jdbc = JdbcClient.create(dataSource);
        this.sql = """
                SELECT run_id, source, metric, model, model_version, load_expression, steps_used, segments_json,
                       breakpoints_json, breakpoint_p_value, r_squared, cliff, cliff_step_index, capacity, margin,
                       safe_capacity_x, bottleneck, toUnixTimestamp64Micro(fitted_at) AS fitted_us
                FROM %s FINAL
                WHERE run_id = :runId AND (:metric = '' OR metric = :metric)
                ORDER BY metric, source
                """.formatted(tables.capacityFits());
    }

    @Override
    public List<FitView> fits(String runId, Optional<String> metric) {
        return jdbc.sql(sql).param("runId", runId).param("metric", metric.orElse(""))
                .query((rs, n) -> fit(rs)).list();
    }

    private static FitView fit(ResultSet rs) throws SQLException {
        List<FitView.Segment> segments = json(rs.getString("segments_json"), SEGMENTS, "segments_json");
        List<FitView.Breakpoint> breakpoints = json(rs.getString("breakpoints_json"), BREAKPOINTS,
                "breakpoints_json");
        return FitView.of(rs.getString("run_id"), rs.getString("source"), rs.getString("metric"),
                rs.getString("model"), rs.getString("model_version"), rs.getString("load_expression"),
                rs.getInt("steps_used"), segments == null ? List.of() : segments,
                breakpoints == null ? List.of() : breakpoints, nullableDouble(rs, "breakpoint_p_value"),
                nullableDouble(rs, "r_squared"), rs.getBoolean("cliff"), nullableInt(rs, "cliff_step_index"),
                nullableDouble(rs, "capacity"), rs.getDouble("margin"), nullableDouble(rs, "safe_capacity_x"),
                rs.getBoolean("bottleneck"), micros(rs, "fitted_us"));
    }
}
