package dev.caplab.query.throughput;

import static dev.caplab.query.store.Columns.json;

import dev.caplab.query.store.StoreTables;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;

/** The newest row's {@code slo_rules_json} of {@code runs} (Avro JSON of {@code RunStarted.sloRules}). */
@Repository
class JdbcSloRuleReader implements SloRuleReader {

    private static final TypeReference<List<Map<String, Object>>> RULES = new TypeReference<>() { };

    private final JdbcClient jdbc;
    private final String sql;

    JdbcSloRuleReader(DataSource dataSource, StoreTables tables) {
        this.jdbc = JdbcClient.create(dataSource);
        this.sql = "SELECT slo_rules_json FROM %s FINAL WHERE run_id = :runId".formatted(tables.runs());
    }

    @Override
    public List<Map<String, Object>> rules(String runId) {
        return jdbc.sql(sql).param("runId", runId).query((rs, n) -> rs.getString("slo_rules_json")).optional()
                .map(text -> json(text, RULES, "slo_rules_json")).orElse(List.of());
    }
}
