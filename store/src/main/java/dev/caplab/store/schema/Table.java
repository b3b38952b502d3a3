package dev.caplab.store.schema;

/**
 * caplab's tables, the one place their names are spelled: repositories, the sink, the query API and the benchmarks
 * refer to these constants; the DDL under {@code db/clickhouse/} creates them under the same names.
 */
public enum Table {
    RUNS("runs"),
    STEPS("steps"),
    /** Raw samples as readers see them: a view joining {@link #SAMPLE_POINTS} with {@link #SAMPLE_SERIES}. */
    SAMPLES("samples"),
    /** Each raw sample's time, value and summary, with its run and series id: what the sink writes per sample. */
    SAMPLE_POINTS("sample_points"),
    /** Each series' source, metric, kind and labels, once per run and series id. */
    SAMPLE_SERIES("sample_series"),
    STEP_AGGREGATES("step_aggregates"),
    STEP_VERDICTS("step_verdicts"),
    CAPACITY_FITS("capacity_fits"),
    ANNOTATIONS("annotations"),
    ALERTS("alerts"),
    RUN_LATENESS("run_lateness"),
    RUN_CONCLUSIONS("run_conclusions"),
    /** Runs a client deleted: every read of {@link #RUNS} leaves them out. */
    DELETED_RUNS("deleted_runs");

    private final String sqlName;

    Table(String sqlName) {
        this.sqlName = sqlName;
    }

    /** The table's name in SQL, unqualified: it resolves in the connection's database. */
    public String sqlName() {
        return sqlName;
    }

    /** The name qualified by {@code database} (a checked plain identifier), for a connection set to another one. */
    public String in(String database) {
        return Identifiers.requireSafe("database", database) + "." + sqlName;
    }

    @Override
    public String toString() {
        return sqlName;
    }
}
