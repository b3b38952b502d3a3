-- Runs a client deleted (RunDeleted on caplab.runs): every read of runs leaves them out (RunRepository), so they leave
-- every list, table and comparison, and a rebuild, which re-derives from the same log, hides them again. The earliest
-- deletion of a run is the one kept: a repeated delete changes nothing.
CREATE TABLE IF NOT EXISTS deleted_runs
(
    run_id     String,
    deleted_at DateTime64(6, 'UTC'),
    reason     Nullable(String),
    version    UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY run_id;
