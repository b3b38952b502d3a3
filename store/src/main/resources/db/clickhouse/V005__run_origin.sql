-- Runs without ceremony (issue 16): a run whose samples came without a RunStarted gets one inferred by streams.
-- origin says which (DECLARED / INFERRED, RunStarted.origin); rows written before are declared ones.
-- The version of a runs row ranks a declared start above an inferred one (see RunRepository#startVersion).
ALTER TABLE runs ADD COLUMN IF NOT EXISTS origin LowCardinality(String) DEFAULT 'DECLARED' AFTER load_expression;
