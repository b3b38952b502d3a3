package dev.caplab.query.runs;

import dev.caplab.store.access.DeletedRunRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.row.RunRow;
import dev.caplab.query.web.NotFoundException;
import java.time.Instant;
import java.util.Map;

/** No run has this id, or a client deleted it (then the answer says when). */
public final class RunNotFoundException extends NotFoundException {

    private final String runId;
    private final Instant deletedAt;

    public RunNotFoundException(String runId) {
        this(runId, null);
    }

    private RunNotFoundException(String runId, Instant deletedAt) {
        super(deletedAt == null ? "no run with id '" + runId + "'"
                : "run '" + runId + "' was deleted at " + deletedAt);
        this.runId = runId;
        this.deletedAt = deletedAt;
    }

    /**
     * The stored run {@code runId}; throws {@link RunNotFoundException} when it was never stored or a client deleted
     * it (then saying when).
     */
    public static RunRow require(String runId, RunRepository runs, DeletedRunRepository deletions) {
        return runs.find(runId).orElseThrow(() -> of(runId, deletions));
    }

    /** What to throw for {@code runId}, which the store does not have: says when it was deleted, if it was. */
    public static RunNotFoundException of(String runId, DeletedRunRepository deletions) {
        return deletions.find(runId).map(d -> deleted(runId, d.getDeletedAt()))
                .orElseGet(() -> new RunNotFoundException(runId));
    }

    /** The run {@code runId}, which a client deleted at {@code deletedAt}. */
    public static RunNotFoundException deleted(String runId, Instant deletedAt) {
        return new RunNotFoundException(runId, java.util.Objects.requireNonNull(deletedAt, "deletedAt"));
    }

    @Override
    public String problemType() {
        return deletedAt == null ? super.problemType() : "run-deleted";
    }

    @Override
    public String problemTitle() {
        return deletedAt == null ? super.problemTitle() : "Run deleted";
    }

    @Override
    public Map<String, Object> problemProperties() {
        return deletedAt == null ? Map.of("runId", runId) : Map.of("runId", runId, "deletedAt", deletedAt.toString());
    }
}
