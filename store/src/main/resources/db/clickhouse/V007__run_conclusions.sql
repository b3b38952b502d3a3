-- The one decision about a run (analysis Conclusions, written by streams): max stable load, first failing step, the
-- bottleneck and the rule that named it, and per resource its capacity estimate. Every reader (run detail, compare,
-- plans) reads this instead of re-deciding. Re-emitted whenever a step or the run closes or late data amends it;
-- the highest version wins. resources_json is the ResourceEstimate array in Avro's JSON encoding.
CREATE TABLE IF NOT EXISTS run_conclusions
(
    run_id                   String,
    max_stable_x             Nullable(Float64),
    max_stable_step_index    Nullable(Int32),
    first_failing_x          Nullable(Float64),
    first_failing_step_index Nullable(Int32),
    steps_judged             Int32,
    steps_skipped            Int32,
    bottleneck_source        Nullable(String),
    bottleneck_metric        Nullable(String),
    bottleneck_rule          LowCardinality(Nullable(String)),
    bottleneck_value         Nullable(Float64),
    bottleneck_step_index    Nullable(Int32),
    margin                   Float64,
    resources_json           String,
    run_closed               Bool,
    model                    LowCardinality(String),
    concluded_at             DateTime64(6, 'UTC'),
    version                  UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY run_id;
