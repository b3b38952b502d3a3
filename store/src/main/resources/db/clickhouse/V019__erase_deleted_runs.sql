-- Runs deleted before the sink erased a deleted run's rows: their deletion is in deleted_runs and their rows are still
-- in every other table, where SQL (/api/v1/sql, port 8123) sees them. Erased once here, as the sink now erases a run
-- when it stores its deletion (DeletedRunRepository.erase, which finds the tables in system.columns). The tables with
-- a run_id column as of V018; deleted_runs stays, the record of the deletions. Safe to run again if interrupted.
DELETE FROM alerts WHERE run_id IN (SELECT run_id FROM deleted_runs) SETTINGS lightweight_deletes_sync = 2;
DELETE FROM annotations WHERE run_id IN (SELECT run_id FROM deleted_runs) SETTINGS lightweight_deletes_sync = 2;
DELETE FROM capacity_fits WHERE run_id IN (SELECT run_id FROM deleted_runs) SETTINGS lightweight_deletes_sync = 2;
DELETE FROM run_conclusions WHERE run_id IN (SELECT run_id FROM deleted_runs) SETTINGS lightweight_deletes_sync = 2;
DELETE FROM run_lateness WHERE run_id IN (SELECT run_id FROM deleted_runs) SETTINGS lightweight_deletes_sync = 2;
DELETE FROM runs WHERE run_id IN (SELECT run_id FROM deleted_runs) SETTINGS lightweight_deletes_sync = 2;
DELETE FROM sample_points WHERE run_id IN (SELECT run_id FROM deleted_runs) SETTINGS lightweight_deletes_sync = 2;
DELETE FROM sample_series WHERE run_id IN (SELECT run_id FROM deleted_runs) SETTINGS lightweight_deletes_sync = 2;
DELETE FROM step_aggregates WHERE run_id IN (SELECT run_id FROM deleted_runs) SETTINGS lightweight_deletes_sync = 2;
DELETE FROM step_verdicts WHERE run_id IN (SELECT run_id FROM deleted_runs) SETTINGS lightweight_deletes_sync = 2;
DELETE FROM steps WHERE run_id IN (SELECT run_id FROM deleted_runs) SETTINGS lightweight_deletes_sync = 2;
