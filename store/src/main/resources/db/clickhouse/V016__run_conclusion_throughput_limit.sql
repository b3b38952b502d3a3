-- The run's throughput limit as streams decided it (analysis ThroughputLimit over the request rate's fit) and whether
-- the load generator, not the server, set it (analysis GeneratorLimit): readers read these columns and decide
-- nothing. All null when the request rate never stopped growing (or too few steps to tell); the generator columns are
-- null when the generator was not the limit. Rows written before carry none until a rebuild re-derives them.
ALTER TABLE run_conclusions ADD COLUMN IF NOT EXISTS throughput_knee_x Nullable(Float64);
ALTER TABLE run_conclusions ADD COLUMN IF NOT EXISTS throughput_knee_lower95 Nullable(Float64);
ALTER TABLE run_conclusions ADD COLUMN IF NOT EXISTS throughput_knee_upper95 Nullable(Float64);
ALTER TABLE run_conclusions ADD COLUMN IF NOT EXISTS throughput_plateau_rate_per_s Nullable(Float64);
ALTER TABLE run_conclusions ADD COLUMN IF NOT EXISTS throughput_slope_before_per_x Nullable(Float64);
ALTER TABLE run_conclusions ADD COLUMN IF NOT EXISTS throughput_slope_after_per_x Nullable(Float64);
ALTER TABLE run_conclusions ADD COLUMN IF NOT EXISTS throughput_breakpoint_p_value Nullable(Float64);
ALTER TABLE run_conclusions ADD COLUMN IF NOT EXISTS throughput_steps_used Nullable(Int32);
ALTER TABLE run_conclusions ADD COLUMN IF NOT EXISTS throughput_fitted_at Nullable(DateTime64(6, 'UTC'));
ALTER TABLE run_conclusions ADD COLUMN IF NOT EXISTS generator_saturated_at_x Nullable(Float64);
ALTER TABLE run_conclusions ADD COLUMN IF NOT EXISTS generator_cpu_percent Nullable(Float64);
