package dev.caplab.store.access;

import dev.caplab.store.row.RunKindCount;
import dev.caplab.store.row.RunRow;

import dev.caplab.store.schema.Table;
import javax.sql.DataSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs: written from RunStarted (and RunEnded), listed by filters, read as their latest version. Every read leaves
 * out the runs a client deleted: this is the one place the query API's lists, details and comparisons pass through.
 */
public final class RunRepository {

    static final RowCodec<RunRow> CODEC = RowCodec.derived(Table.RUNS.sqlName(), RunRow.class, true);

    /**
     * Version bit of a row carrying a declared start's metadata: set, it outranks every row without it, so a declared
     * start wins over an inferred one whatever their offsets. Below it, the sequence (a Kafka offset + 1).
     */
    public static final long DECLARED_BIT = 1L << 62;
    /** Version bit of a row carrying the run's end: an end outranks the start it was copied from. */
    public static final long ENDED_BIT = 1L << 61;

    private static final String RUN = "run";

    private static final RecordCodec<RunKindCount> KIND = RecordCodec.of(RunKindCount.class);

    private final TableAccess<RunRow> access;
    private final ReadScope reads;

    public RunRepository(DataSource dataSource) {
        this(dataSource, (EngineInserts) null);
    }

    /** Reads through {@code dataSource}; inserts straight into the in-process engine when {@code direct} is set. */
    public RunRepository(DataSource dataSource, EngineInserts direct) {
        this.access = new TableAccess<>(dataSource, CODEC, direct);
        this.reads = ReadScope.NONE;
    }

    /** Reads through {@code dataSource}, a run's row once per {@code reads} scope, by id or among others. */
    public RunRepository(DataSource dataSource, ReadScope reads) {
        this.access = new TableAccess<>(dataSource, CODEC, null);
        this.reads = reads;
    }

    /** Inserts run rows; a replay with the same or lower version changes nothing once merged. */
    public int insertBatch(List<RunRow> rows, String dedupToken) {
        return access.insertBatch(rows, dedupToken);
    }

    /**
     * The version of a start row: {@code sequence} (the event's offset + 1, monotonic within the run's partition),
     * with {@link #DECLARED_BIT} when a client declared it, so no inferred start replaces a declared one.
     */
    public static long startVersion(boolean declared, long sequence) {
        if (sequence < 0 || sequence >= ENDED_BIT) {
            throw new IllegalArgumentException("run row sequence out of range: " + sequence);
        }
        return declared ? DECLARED_BIT | sequence : sequence;
    }

    /**
     * Records RunEnded as a new version of the run's latest row, copied inside ClickHouse: the copy keeps the row's
     * {@link #DECLARED_BIT}, adds {@link #ENDED_BIT} and takes {@code sequence} (the RunEnded's offset + 1). Does
     * nothing if the run has no row yet or its latest already ranks at least as high.
     */
    public void markEnded(String runId, Instant endedAt, String status, String reason, long sequence) {
        markEndedAll(List.of(new RunEnd(runId, endedAt, status, reason, sequence)));
    }

    /** A RunEnded to record: the run, its end, status and reason, and its sequence (the event's offset + 1). */
    public record RunEnd(String runId, Instant endedAt, String status, String reason, long sequence) {
    }

    /**
     * Records many RunEnded in one statement, each as {@link #markEnded} would: one INSERT ... SELECT joining the
     * runs' latest rows to the ends, instead of one statement per end; the ends travel as arrays, so the statement
     * stays the same size however many there are.
     */
    public void markEndedAll(List<RunEnd> ends) {
        if (ends.isEmpty()) {
            return;
        }
        Object[] runIds = new Object[ends.size()];
        Object[] endedAt = new Object[ends.size()];
        Object[] statuses = new Object[ends.size()];
        Object[] reasons = new Object[ends.size()];
        Object[] sequences = new Object[ends.size()];
        for (int i = 0; i < ends.size(); i++) {
            RunEnd e = ends.get(i);
            runIds[i] = e.runId();
            endedAt[i] = StepRepository.micros(e.endedAt());
            statuses[i] = e.status();
            reasons[i] = e.reason();
            sequences[i] = ENDED_BIT | e.sequence();
        }
        String version = "bitOr(bitAnd(s.version, toUInt64(" + DECLARED_BIT + ")), e.sequence)";
        List<String> copied = access.columns().stream().map(c -> switch (c) {
            case "ended_at", "status", "end_reason" -> "e." + c;
            case "version" -> version;
            default -> "s." + c;
        }).toList();
        access.update("INSERT INTO " + access.table() + " (" + String.join(", ", access.columns()) + ") SELECT "
                + String.join(", ", copied) + " FROM "
                + access.table() + " AS s FINAL INNER JOIN (SELECT t.1 AS run_id,"
                + " fromUnixTimestamp64Micro(t.2, 'UTC') AS ended_at, t.3 AS status, t.4 AS end_reason,"
                + " t.5 AS sequence FROM (SELECT arrayJoin(arrayZip(CAST(? AS Array(String)),"
                + " CAST(? AS Array(Int64)), CAST(? AS Array(Nullable(String))), CAST(? AS Array(Nullable(String))),"
                + " CAST(? AS Array(UInt64)))) AS t)) AS e ON s.run_id = e.run_id WHERE s.version < " + version
                + " AND s.run_id IN (SELECT arrayJoin(CAST(? AS Array(String))))", runIds, endedAt, statuses,
                reasons, sequences, StepRepository.distinct(runIds));
    }

    /** The run's latest version; empty for a run never stored or deleted ({@link DeletedRunRepository}). */
    public Optional<RunRow> find(String runId) {
        return reads.once(RUN, List.of(runId), () -> access.select("run_id = ? AND "
                + DeletedRunRepository.NOT_DELETED, "", runId).stream().findFirst());
    }

    /**
     * Runs matching {@code filter} in its order (ties: newest first, then by run id), the page it asks for; deleted
     * runs never match.
     */
    public List<RunRow> find(RunFilter filter) {
        List<String> where = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        matching(filter, where, values);
        values.add(filter.limit());
        values.add(filter.offset());
        String order = filter.sort() == RunFilter.RunSort.STARTED_AT ? ""
                : filter.sort().column + (filter.descending() ? " DESC" : " ASC") + ", ";
        String startedAt = filter.sort() == RunFilter.RunSort.STARTED_AT && !filter.descending() ? "ASC" : "DESC";
        return access.select(String.join(" AND ", where), order + "started_at " + startedAt
                + ", run_id LIMIT ? OFFSET ?", values.toArray());
    }

    /**
     * The newest run of each of {@code tiers} among the runs of {@code sutName} (of every system when null), by
     * tier, in one statement; a tier without runs is absent. Deleted runs never count.
     */
    public Map<String, RunRow> newestOfTiers(String sutName, Collection<String> tiers) {
        List<String> distinct = tiers.stream().distinct().toList();
        if (distinct.isEmpty()) {
            return Map.of();
        }
        List<String> where = new ArrayList<>(List.of(DeletedRunRepository.NOT_DELETED,
                "tier IN (" + String.join(", ", Collections.nCopies(distinct.size(), "?")) + ")"));
        List<Object> values = new ArrayList<>(distinct);
        equal(where, values, "sut_name", sutName);
        Map<String, RunRow> byTier = new HashMap<>();
        for (RunRow r : access.select(String.join(" AND ", where), "started_at DESC, run_id LIMIT 1 BY tier",
                values.toArray())) {
            byTier.put(r.tier(), r);
            // a run read here is not read again by id in the same scope (a plan reads its conclusion's run)
            reads.keep(RUN, List.of(r.runId()), Optional.of(r));
        }
        return byTier;
    }

    /**
     * The runs {@code filter} matches (its page and order aside), counted by the values the runs list filters by: a
     * few rows however many runs match, so a caller can check that the runs share a system, tier or load expression
     * and count them by status without reading them.
     */
    public List<RunKindCount> kinds(RunFilter filter) {
        List<String> where = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        matching(filter, where, values);
        return kinds(String.join(" AND ", where), values.toArray());
    }

    /**
     * Every run counted by the values the runs list filters by, over all runs not deleted (latest versions): a few
     * hundred rows however many runs are stored, so the choices a page offers never depend on which runs it listed.
     */
    public List<RunKindCount> kinds() {
        return kinds(DeletedRunRepository.NOT_DELETED);
    }

    private List<RunKindCount> kinds(String where, Object... values) {
        return access.query("SELECT sut_name, sut_version, tier, provider, tool, status, load_expression, count()"
                + " FROM " + access.table() + " FINAL WHERE " + where
                + " GROUP BY sut_name, sut_version, tier, provider, tool, status, load_expression", KIND::read, values);
    }

    /**
     * The runs of {@code runIds} that exist and were not deleted, latest versions, in the order asked; a repeated id
     * comes once. Runs this scope already read by id are not read again, and those read here are kept as if read by
     * id.
     */
    public List<RunRow> findAll(List<String> runIds) {
        List<String> distinct = runIds.stream().distinct().toList();
        Map<String, Optional<RunRow>> byId = new HashMap<>();
        for (String id : distinct) {
            Optional<RunRow> kept = reads.kept(RUN, List.of(id));
            if (kept != null) {
                byId.put(id, kept);
            }
        }
        List<String> unread = distinct.stream().filter(id -> !byId.containsKey(id)).toList();
        if (!unread.isEmpty()) {
            Map<String, RunRow> read = new HashMap<>();
            for (RunRow r : access.select("run_id IN (" + String.join(", ", Collections.nCopies(unread.size(), "?"))
                    + ") AND " + DeletedRunRepository.NOT_DELETED, "", unread.toArray())) {
                read.put(r.runId(), r);
            }
            for (String id : unread) {
                Optional<RunRow> row = Optional.ofNullable(read.get(id));
                byId.put(id, row);
                reads.keep(RUN, List.of(id), row);
            }
        }
        return distinct.stream().map(byId::get).flatMap(Optional::stream).toList();
    }

    /** The conditions {@code filter} sets, its page and order aside; deleted runs never match. */
    private static void matching(RunFilter filter, List<String> where, List<Object> values) {
        where.add(DeletedRunRepository.NOT_DELETED);
        equal(where, values, "sut_name", filter.sutName());
        equal(where, values, "sut_version", filter.sutVersion());
        equal(where, values, "provider", filter.provider());
        equal(where, values, "region", filter.region());
        equal(where, values, "tier", filter.tier());
        equal(where, values, "tool", filter.tool());
        if (RunRow.RUNNING.equals(filter.status())) {
            // a running run has no status stored yet (RunRow.statusOf)
            where.add("status IS NULL");
        } else {
            equal(where, values, "status", filter.status());
        }
        equal(where, values, "load_expression", filter.loadExpression());
        filter.labels().forEach((key, value) -> add(where, values, "labels[?] = ?", key, value));
        if (filter.from() != null) {
            add(where, values, "started_at >= ?", filter.from());
        }
        if (filter.to() != null) {
            add(where, values, "started_at < ?", filter.to());
        }
    }

    /** An empty or null value does not filter. */
    private static void equal(List<String> where, List<Object> values, String column, String value) {
        if (value != null && !value.isEmpty()) {
            add(where, values, column + " = ?", value);
        }
    }

    private static void add(List<String> where, List<Object> values, String clause, Object... bound) {
        where.add(clause);
        values.addAll(List.of(bound));
    }
}
