package dev.caplab.store.access;

import dev.caplab.store.row.StepRow;

import dev.caplab.store.schema.Table;
import javax.sql.DataSource;
import java.time.Instant;
import java.util.List;

/** Steps of runs, from StepStarted/StepEnded. */
public final class StepRepository extends RunScopedRepository<StepRow> {

    static final RowCodec<StepRow> CODEC = RowCodec.derived(Table.STEPS.sqlName(), StepRow.class, true);

    public StepRepository(DataSource dataSource) {
        this(dataSource, (EngineInserts) null);
    }

    /** Reads through {@code dataSource}; inserts straight into the in-process engine when {@code direct} is set. */
    public StepRepository(DataSource dataSource, EngineInserts direct) {
        super(dataSource, CODEC, "step_index", direct);
    }

    /** Reads through {@code dataSource}, a run's rows once per {@code reads} scope. */
    public StepRepository(DataSource dataSource, ReadScope reads) {
        super(dataSource, CODEC, "step_index", null, reads);
    }

    /** A StepEnded to record: the step, its end, and the version its copy takes (the event's offset + 1). */
    public record StepEnd(String runId, int stepIndex, Instant endedAt, long version) {
    }

    /**
     * Records many StepEnded in one statement, each as {@link #markEnded} would: one INSERT ... SELECT joining the
     * steps' latest rows to the ends, instead of one statement per end (a sink batch holds hundreds of them). The ends
     * travel as four arrays, so the statement's text and what the driver and ClickHouse parse stay the same size
     * however many ends there are.
     */
    public void markEndedAll(List<StepEnd> ends) {
        if (ends.isEmpty()) {
            return;
        }
        Object[] runIds = new Object[ends.size()];
        Object[] indexes = new Object[ends.size()];
        Object[] endedAt = new Object[ends.size()];
        Object[] versions = new Object[ends.size()];
        for (int i = 0; i < ends.size(); i++) {
            StepEnd e = ends.get(i);
            runIds[i] = e.runId();
            indexes[i] = e.stepIndex();
            endedAt[i] = micros(e.endedAt());
            versions[i] = e.version();
        }
        List<String> copied = access.columns().stream()
                .map(c -> c.equals("ended_at") || c.equals("version") ? "e." + c : "s." + c).toList();
        access.update("INSERT INTO " + access.table() + " (" + String.join(", ", access.columns()) + ") SELECT "
                + String.join(", ", copied) + " FROM "
                + access.table() + " AS s FINAL INNER JOIN (SELECT t.1 AS run_id, t.2 AS step_index,"
                + " fromUnixTimestamp64Micro(t.3, 'UTC') AS ended_at, t.4 AS version FROM (SELECT arrayJoin(arrayZip("
                + "CAST(? AS Array(String)), CAST(? AS Array(Int32)), CAST(? AS Array(Int64)),"
                + " CAST(? AS Array(UInt64)))) AS t)) AS e ON s.run_id = e.run_id AND s.step_index = e.step_index"
                + " WHERE s.version < e.version AND s.run_id IN (SELECT arrayJoin(CAST(? AS Array(String))))",
                runIds, indexes, endedAt, versions, distinct(runIds));
    }

    /** The distinct values of {@code values}, in first-seen order. */
    static Object[] distinct(Object[] values) {
        return java.util.Arrays.stream(values).distinct().toArray();
    }

    static long micros(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
    }

    /** Records StepEnded as a new version of the step's latest row, copied inside ClickHouse. */
    public void markEnded(String runId, int stepIndex, Instant endedAt, long version) {
        markEndedAll(List.of(new StepEnd(runId, stepIndex, endedAt, version)));
    }
}
