package dev.caplab.ingest.runs;

import dev.caplab.ingest.lifecycle.RunDeletedException;
import dev.caplab.schema.event.RunDeleted;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunOrigin;
import dev.caplab.schema.event.RunStarted;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.specific.SpecificRecord;

/**
 * What ingest knows of each run from the lifecycle topic ({@code caplab.runs}): whether a client declared it or
 * streams inferred it from its samples, and where it ended. Fed by {@link LifecycleWatcher}; read by
 * {@link RunGenerations} on every write. Thread-safe.
 */
public final class RunDirectory {

    private final ConcurrentHashMap<String, RunFacts> runs = new ConcurrentHashMap<>();
    private final java.util.concurrent.CountDownLatch loaded = new java.util.concurrent.CountDownLatch(1);
    private final long createdNanos = System.nanoTime();

    /** The topic was read up to where it ended when reading began: the directory knows every run ended before. */
    public void markLoaded() {
        loaded.countDown();
    }

    /**
     * Waits until the directory holds what the topic held when reading began, so a test sent right after a restart is
     * not taken for the continuation of a run that ended before it; at most until {@code timeout} after this
     * directory was made (the topic may not exist yet), so only the first writes after a start ever wait.
     */
    public void awaitLoaded(java.time.Duration timeout) {
        long left = createdNanos + timeout.toNanos() - System.nanoTime();
        try {
            if (left > 0) {
                loaded.await(left, java.util.concurrent.TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Folds one lifecycle event in; other events than a run's start, end and deletion change nothing. */
    public void apply(SpecificRecord event) {
        switch (event) {
            case RunStarted s -> runs.merge(s.getRunId().toString(),
                    new RunFacts(s.getOrigin() != RunOrigin.INFERRED, null, null),
                    (old, now) -> new RunFacts(old.declared() || now.declared(), old.endedAt(), old.deletedAt()));
            case RunEnded e -> runs.merge(e.getRunId().toString(), new RunFacts(false, e.getEndedAt(), null),
                    (old, now) -> new RunFacts(old.declared(), now.endedAt(), old.deletedAt()));
            case RunDeleted d -> runs.merge(d.getRunId().toString(), new RunFacts(false, null, d.getDeletedAt()),
                    (old, now) -> new RunFacts(old.declared(), old.endedAt(),
                            old.deleted() ? old.deletedAt() : now.deletedAt()));
            default -> {
                // steps and annotations do not decide where samples go
            }
        }
    }

    /**
     * Refuses anything more for a run a client deleted: a deleted run takes no lifecycle event (its samples begin the
     * next run, {@link RunGenerations}).
     *
     * @throws RunDeletedException naming the run and when it was deleted
     */
    public void refuseIfDeleted(String runId) {
        facts(runId).filter(RunFacts::deleted).ifPresent(f -> {
            throw new RunDeletedException(runId, f.deletedAt());
        });
    }

    /** The run's facts, empty while no start or end of it was seen. */
    public Optional<RunFacts> facts(String runId) {
        return Optional.ofNullable(runs.get(runId));
    }

    /**
     * One run as the lifecycle topic tells it.
     *
     * @param declared  a client sent its RunStarted (never split into a new run)
     * @param endedAt   its end, null while it runs
     * @param deletedAt when a client deleted it (its first deletion), null while it stands
     */
    public record RunFacts(boolean declared, Instant endedAt, Instant deletedAt) {

        public boolean ended() {
            return endedAt != null;
        }

        /** A client deleted it: it takes no more samples, and a delete of it again finds nothing. */
        public boolean deleted() {
            return deletedAt != null;
        }

        /** A run nobody started that ended (streams ends those after {@code --run-idle-end} without input). */
        public boolean endedUndeclared() {
            return !declared && endedAt != null;
        }
    }
}
