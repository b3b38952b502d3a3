-- The samples table V010 moved into sample_series and sample_points, dropped once V010 is recorded as applied.
DROP TABLE IF EXISTS samples_v009;
