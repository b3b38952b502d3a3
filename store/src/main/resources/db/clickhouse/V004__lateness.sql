-- Late data (streams/README.md, "Late data"): a sample that reaches a step after the step first closed is folded in
-- and the step re-emitted with a higher version; late_count says how many such samples the step took.
ALTER TABLE step_aggregates ADD COLUMN IF NOT EXISTS late_count UInt64 DEFAULT 0;
ALTER TABLE step_verdicts ADD COLUMN IF NOT EXISTS late_count UInt64 DEFAULT 0;

-- Per run: samples folded in late (amending steps), and samples beyond the allowed lateness (kept raw in samples,
-- in no aggregate). Cumulative counts; the highest version wins.
CREATE TABLE IF NOT EXISTS run_lateness
(
    run_id                  String,
    late_samples            UInt64,
    beyond_lateness_samples UInt64,
    updated_at              DateTime64(6, 'UTC'),
    version                 UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY run_id;
