package dev.caplab.sink;

import dev.caplab.store.access.DeletedRunRepository;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Keeps a deleted run's rows out of the store for one batch, whatever order its events and its deletion arrive in
 * (late samples, a result still in flight, a replay that reads one topic before another).
 *
 * <p>Before a run's rows are written, {@link #deleted} asks the store whether the run was deleted (once per run and
 * batch, the batch's record keys in one query: topics are keyed by run id); a deleted run's rows are not written.
 * After the batch is written, {@link #eraseLate} asks again and erases the runs deleted in between: their deletion
 * was stored by this batch, or by another sink after this one asked, and may have found their rows of this batch
 * not yet written. Between the two, every row is covered: a deletion is stored before its sink erases its run, and
 * this batch's inserts finish before it asks again, so either that erasure sees them or the second question sees the
 * deletion.
 */
final class DeletedRunGuard {

    private final DeletedRunRepository deletions;
    /** Each run asked about in this batch, and whether it was deleted when asked. */
    private final Map<String, Boolean> deletedWhenAsked = new HashMap<>();

    /** Asks about the runs {@code records} are keyed by. */
    DeletedRunGuard(DeletedRunRepository deletions, List<ConsumerRecord<String, byte[]>> records) {
        this.deletions = deletions;
        ask(records.stream().map(ConsumerRecord::key).filter(Objects::nonNull).distinct().toList());
    }

    /** Whether {@code runId} was deleted when first asked about in this batch; false for no run. */
    boolean deleted(String runId) {
        if (runId == null) {
            return false;
        }
        if (!deletedWhenAsked.containsKey(runId)) {
            ask(List.of(runId));
        }
        return deletedWhenAsked.get(runId);
    }

    /**
     * {@code rows} without those of deleted runs, a row's run being what {@code runIdOf} names; the same list when
     * none is.
     */
    <T> List<T> withoutDeleted(List<T> rows, Function<? super T, String> runIdOf) {
        String live = null;
        for (T row : rows) {
            // a record's rows are mostly of one run: one lookup per run, not per row
            String runId = runIdOf.apply(row);
            if (!runId.equals(live)) {
                if (deleted(runId)) {
                    return rows.stream().filter(r -> !deleted(runIdOf.apply(r))).toList();
                }
                live = runId;
            }
        }
        return rows;
    }

    /**
     * After the batch is written: erases every row of the runs asked about that were deleted since they were asked
     * about. {@code rewrite}: the batch may have been written before (re-formed from a crashed owner's intent, or
     * retried after a failure), possibly after a deletion's erasure and without the erasure that should have
     * followed; this attempt's inserts skip those rows as duplicates of the same dedup tokens, so every deleted run of
     * the batch is erased. Returns the runs erased.
     */
    Set<String> eraseLate(boolean rewrite) {
        List<String> ask = deletedWhenAsked.entrySet().stream().filter(e -> rewrite || !e.getValue())
                .map(Map.Entry::getKey).toList();
        Set<String> erase = deletions.deletedAmong(ask);
        deletions.erase(erase);
        return erase;
    }

    private void ask(List<String> runIds) {
        Set<String> deleted = deletions.deletedAmong(runIds);
        runIds.forEach(runId -> deletedWhenAsked.put(runId, deleted.contains(runId)));
    }
}
