-- Runs and their steps, from RunStarted/RunEnded and StepStarted/StepEnded (schema/src/main/avro/lifecycle.avsc).
-- An end event is written as a new version of the row, so readers take the highest version (FINAL / argMax).
-- Nested Avro structures are stored as the JSON Avro itself prints (GenericRecord#toString), see *_json columns.
CREATE TABLE IF NOT EXISTS runs
(
    run_id               String,
    started_at           DateTime64(6, 'UTC'),
    sut_name             String,
    sut_version          Nullable(String),
    sut_config_digest    Nullable(String),
    provider             LowCardinality(String),
    region               Nullable(String),
    instance_type        Nullable(String),
    tier                 Nullable(String),
    vcpu                 Nullable(Float64),
    memory_bytes         Nullable(Int64),
    nominal_egress_mbps  Nullable(Float64),
    measured_egress_mbps Nullable(Float64),
    tool                 LowCardinality(String),
    labels               Map(String, String),
    planned_steps_json   String,
    slo_rules_json       String,
    load_expression      String,
    ended_at             Nullable(DateTime64(6, 'UTC')),
    status               Nullable(String),
    end_reason           Nullable(String),
    version              UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY run_id;

CREATE TABLE IF NOT EXISTS steps
(
    run_id        String,
    step_index    Int32,
    load          Map(String, Float64),
    started_at    DateTime64(6, 'UTC'),
    warmup_micros Int64,
    ended_at      Nullable(DateTime64(6, 'UTC')),
    version       UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (run_id, step_index);
