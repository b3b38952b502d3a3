-- Raw samples as series and points (issue 13 item 5, bench/README.md "Series and points"). A sample's source,
-- metric, kind and labels (~400 of the ~420 bytes chDB parsed per row) are the same for every sample of a series,
-- so they are stored once per run and series in sample_series, and each sample is a point: run, series id, time,
-- value and the summary statistics a tool may send. The sink computes a series id from the series' content (a hash,
-- so workers and replays agree without coordination); ids are opaque, used only to join. Parsing, writing and
-- merging a point costs chDB about half of what a whole row did (SampleTableBench-style runs, same rows).
-- samples stays the name readers use: a view with the old columns, in the old order.
CREATE TABLE IF NOT EXISTS sample_series
(
    run_id    String,
    series_id UInt64,
    source    String,
    metric    String,
    kind      String,
    labels    Map(String, String)
)
ENGINE = ReplacingMergeTree
ORDER BY (run_id, series_id)
SETTINGS non_replicated_deduplication_window = 1000;

-- Plain MergeTree deduplicated by the sink's batch tokens, as samples was.
CREATE TABLE IF NOT EXISTS sample_points
(
    run_id                 String,
    series_id              UInt64,
    ts                     DateTime64(6, 'UTC') CODEC(DoubleDelta, LZ4),
    value                  Float64,
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
ORDER BY (run_id, series_id, ts)
SETTINGS non_replicated_deduplication_window = 1000, vertical_merge_algorithm_min_columns_to_activate = 1;

-- The samples written before move over. Safe to run again if interrupted: the old table is renamed once (IF EXISTS),
-- the new tables are emptied and refilled from it. The old table is dropped by the next migration, after this one is
-- recorded, so no rerun can ever read the view in its place.
RENAME TABLE IF EXISTS samples TO samples_v009;
TRUNCATE TABLE sample_series;
TRUNCATE TABLE sample_points;
INSERT INTO sample_series
SELECT run_id, sipHash64(source, metric, kind, labels) AS series_id, any(source), any(metric), any(kind), any(labels)
FROM samples_v009
GROUP BY run_id, series_id;
INSERT INTO sample_points
SELECT run_id, sipHash64(source, metric, kind, labels), ts, value, summary_window, summary_count,
       summary_window_micros, summary_mean, summary_min, summary_max, summary_quantiles
FROM samples_v009;

-- LEFT ANY: one series row per point even before ReplacingMergeTree has merged a series written twice (replays,
-- two workers), and a point whose series is missing still shows, with empty series columns, rather than vanishing.
CREATE VIEW IF NOT EXISTS samples AS
SELECT p.run_id                AS run_id,
       p.ts                    AS ts,
       s.source                AS source,
       s.metric                AS metric,
       s.kind                  AS kind,
       p.value                 AS value,
       s.labels                AS labels,
       p.summary_window        AS summary_window,
       p.summary_count         AS summary_count,
       p.summary_window_micros AS summary_window_micros,
       p.summary_mean          AS summary_mean,
       p.summary_min           AS summary_min,
       p.summary_max           AS summary_max,
       p.summary_quantiles     AS summary_quantiles
FROM sample_points AS p
LEFT ANY JOIN sample_series AS s ON s.run_id = p.run_id AND s.series_id = p.series_id;
