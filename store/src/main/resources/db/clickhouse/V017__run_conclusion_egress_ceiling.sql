-- The egress ceiling the run was planned against and where it came from, as streams resolved it (analysis
-- EffectiveEgress: a declared measured figure, else the latest iperf3 measurement, else the declared nominal one):
-- readers read it and resolve nothing. Null when the run has none, and in rows written before it was kept.
ALTER TABLE run_conclusions ADD COLUMN IF NOT EXISTS egress_ceiling_mbps Nullable(Float64);
ALTER TABLE run_conclusions ADD COLUMN IF NOT EXISTS egress_ceiling_source LowCardinality(Nullable(String));
ALTER TABLE run_conclusions ADD COLUMN IF NOT EXISTS egress_ceiling_measured_at Nullable(DateTime64(6, 'UTC'));
