-- Raw samples, the volume (SampleBatch in lifecycle.avsc, Sample in common.avsc); one row per Sample.
-- Plain MergeTree: replays are made idempotent by insert_deduplication_token, which on a non-replicated
-- table only works with a deduplication window.
CREATE TABLE IF NOT EXISTS samples
(
    run_id                 String,
    ts                     DateTime64(6, 'UTC'),
    source                 LowCardinality(String),
    metric                 LowCardinality(String),
    kind                   LowCardinality(String),
    value                  Float64,
    labels                 Map(String, String),
    summary_window         Nullable(String),
    summary_count          Nullable(Int64),
    summary_window_micros  Nullable(Int64),
    summary_mean           Nullable(Float64),
    summary_min            Nullable(Float64),
    summary_max            Nullable(Float64),
    summary_quantiles      Map(String, Float64)
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (run_id, metric, source, ts)
SETTINGS non_replicated_deduplication_window = 1000;
