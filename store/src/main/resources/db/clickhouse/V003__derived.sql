-- What streams derives (schema/src/main/avro/derived.avsc). ReplacingMergeTree(version) keyed by the
-- record's identity: a replay or re-delivery rewrites the same key and the highest version wins.
-- Avro's count/sum/min/max/mean become sample_count/value_sum/value_min/value_max/value_mean.
CREATE TABLE IF NOT EXISTS step_aggregates
(
    run_id          String,
    step_index      Int32,
    load            Map(String, Float64),
    x               Nullable(Float64),
    source          LowCardinality(String),
    metric          LowCardinality(String),
    kind            LowCardinality(String),
    sample_count    Int64,
    warmup_count    Int64,
    value_sum       Float64,
    value_min       Float64,
    value_max       Float64,
    value_mean      Float64,
    sustained       Float64,
    peak            Float64,
    quantiles       Map(String, Float64),
    rate_per_second Nullable(Float64),
    baseline_delta  Nullable(Float64),
    window_start    DateTime64(6, 'UTC'),
    window_end      DateTime64(6, 'UTC'),
    contaminated    Bool,
    version         UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (run_id, step_index, metric, source);

CREATE TABLE IF NOT EXISTS step_verdicts
(
    run_id               String,
    step_index           Int32,
    load                 Map(String, Float64),
    x                    Nullable(Float64),
    passed               Bool,
    outcomes_json        String,
    contaminated         Bool,
    contamination_reason Nullable(String),
    bottleneck           Nullable(String),
    version              UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (run_id, step_index);

CREATE TABLE IF NOT EXISTS capacity_fits
(
    run_id             String,
    source             LowCardinality(String),
    metric             LowCardinality(String),
    model              LowCardinality(String),
    model_version      String,
    load_expression    String,
    steps_used         Int32,
    segments_json      String,
    breakpoints_json   String,
    breakpoint_p_value Nullable(Float64),
    r_squared          Nullable(Float64),
    cliff              Bool,
    cliff_step_index   Nullable(Int32),
    capacity           Nullable(Float64),
    margin             Float64,
    safe_capacity_x    Nullable(Float64),
    bottleneck         Bool,
    fitted_at          DateTime64(6, 'UTC'),
    version            UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (run_id, metric, source);

-- Annotations and alerts carry no version: the whole event is the key, so a replay collapses onto itself.
CREATE TABLE IF NOT EXISTS annotations
(
    run_id String,
    at     DateTime64(6, 'UTC'),
    text   String,
    labels Map(String, String)
)
ENGINE = ReplacingMergeTree
ORDER BY (run_id, at, text);

CREATE TABLE IF NOT EXISTS alerts
(
    run_id     String,
    at         DateTime64(6, 'UTC'),
    kind       LowCardinality(String),
    step_index Nullable(Int32),
    message    String
)
ENGINE = ReplacingMergeTree
ORDER BY (run_id, at, kind, message);
