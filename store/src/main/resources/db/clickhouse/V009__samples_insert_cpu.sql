-- Raw samples cost chDB less CPU per row (issue 13 item 5, bench/README.md "The samples table and chDB's CPU").
-- source, metric and kind become plain String: chDB parses RowBinary row by row, and a LowCardinality value is
-- parsed into a temporary column then looked up in the part's dictionary, which made these three columns half of
-- the insert's CPU (SampleTableBench: 2.6 -> 1.5 us/sample into a Null table). Their values are the same; only the
-- type name a query reports changes. Sorted by (run_id, metric, source, ts), they compress to runs either way.
-- ts gets DoubleDelta: steady timestamps of one series were 4.8 of the 11 bytes a sample took on disk.
-- Merges go vertical (key columns merged, the others gathered column by column) from 1 non-key column, not 11:
-- merging the labels map row by row was most of a merge's CPU (0.58 vs 1.0-1.4 us/sample, same rows merged).
-- One ALTER, one mutation: parts written before are rewritten once, at the migration, synchronously.
ALTER TABLE samples
    MODIFY COLUMN source String,
    MODIFY COLUMN metric String,
    MODIFY COLUMN kind String,
    MODIFY COLUMN ts DateTime64(6, 'UTC') CODEC(DoubleDelta, LZ4)
    SETTINGS mutations_sync = 2;
ALTER TABLE samples MODIFY SETTING vertical_merge_algorithm_min_columns_to_activate = 1;
