package dev.caplab.store.access;

import dev.caplab.schema.health.RoleStatus;
import java.util.List;
import javax.sql.DataSource;

/** Whether ClickHouse answers a statement through the store's data source: the {@code clickhouse} part of health. */
public final class StoreHealth {

    private final DataSource dataSource;

    public StoreHealth(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** UP when {@code SELECT 1} answered, DOWN with the store's failure otherwise; never throws a store failure. */
    public RoleStatus check() {
        try {
            List<Integer> one = TableAccess.query(dataSource, "checking ClickHouse", "SELECT 1", rs -> rs.getInt(1));
            return one.equals(List.of(1)) ? new RoleStatus("clickhouse", true, "SELECT 1 answered")
                    : new RoleStatus("clickhouse", false, "SELECT 1 answered " + one);
        } catch (StoreException e) {
            return new RoleStatus("clickhouse", false, String.valueOf(e.getMessage()));
        }
    }
}
