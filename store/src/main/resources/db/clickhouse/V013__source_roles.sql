-- The role of a fitted resource's source (sut or host, analysis SourceRole): agents and the load generator are never
-- fitted, and the run page and plans say which fits are the machine's and which the system's. Null on fits written
-- before roles were decided.
ALTER TABLE capacity_fits ADD COLUMN IF NOT EXISTS role LowCardinality(Nullable(String));
