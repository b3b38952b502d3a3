package dev.caplab.query.store;

import dev.caplab.query.QueryApiProperties;
import org.springframework.stereotype.Component;

/**
 * Database-qualified names of caplab's tables. The database name is validated as a plain identifier in
 * {@link QueryApiProperties}, so it is the only text ever spliced into SQL; every value is a bound parameter.
 */
@Component
public class StoreTables {

    private final String database;

    public StoreTables(QueryApiProperties properties) {
        this.database = properties.database();
    }

    public String database() {
        return database;
    }

    public String runs() {
        return qualified("runs");
    }

    public String steps() {
        return qualified("steps");
    }

    public String stepAggregates() {
        return qualified("step_aggregates");
    }

    public String stepVerdicts() {
        return qualified("step_verdicts");
    }

    public String samples() {
        return qualified("samples");
    }

    public String capacityFits() {
        return qualified("capacity_fits");
    }

    private String qualified(String table) {
        return "`" + database + "`.`" + table + "`";
    }
}
