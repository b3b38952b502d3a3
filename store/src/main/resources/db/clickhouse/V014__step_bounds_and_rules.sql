-- Steps carry their bounds as the run's timeline has them (inferred steps have no StepStarted row), and say whether
-- they were judged at all: a run without SLO rules has steps that are not judged, not passed. The conclusion says
-- where its rules came from (run, default, none).
ALTER TABLE step_verdicts ADD COLUMN IF NOT EXISTS judged Bool DEFAULT true;
ALTER TABLE step_verdicts ADD COLUMN IF NOT EXISTS window_start Nullable(DateTime64(6, 'UTC'));
ALTER TABLE step_verdicts ADD COLUMN IF NOT EXISTS window_end Nullable(DateTime64(6, 'UTC'));
ALTER TABLE step_verdicts ADD COLUMN IF NOT EXISTS warmup_micros Nullable(Int64);
ALTER TABLE run_conclusions ADD COLUMN IF NOT EXISTS rules_from LowCardinality(Nullable(String));
