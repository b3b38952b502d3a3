-- What a run's reader must be told (no load metric, no step, samples after the run's end): the RunWarning array of
-- the conclusion in Avro's JSON encoding; rows written before it read as no warning.
ALTER TABLE run_conclusions ADD COLUMN IF NOT EXISTS warnings_json String DEFAULT '[]';
