-- Nested Avro values as typed columns (issue 14): planned steps, SLO rules, rule outcomes, fit segments and
-- breakpoints were kept in *_json String columns as the text Avro's toString prints, which Avro does not promise to
-- be JSON. Now each is an Array of Map or Tuple, written and read as typed values (store/access/NestedValues).
-- Rows already stored are converted once from that text: JSONExtract reads the Avro field names, arrayMap puts the
-- elements in the columns' order where the names differ; then the text columns go.
ALTER TABLE runs ADD COLUMN IF NOT EXISTS planned_steps Array(Map(String, Float64))
    DEFAULT JSONExtract(planned_steps_json, 'Array(Map(String, Float64))') AFTER labels;
ALTER TABLE runs ADD COLUMN IF NOT EXISTS slo_rules Array(Tuple(name String, metric String, statistic String,
        comparator String, threshold Float64, source Nullable(String)))
    DEFAULT JSONExtract(slo_rules_json, 'Array(Tuple(name String, metric String, statistic String,
        comparator String, threshold Float64, source Nullable(String)))') AFTER planned_steps;
ALTER TABLE runs MATERIALIZE COLUMN planned_steps SETTINGS mutations_sync = 2;
ALTER TABLE runs MATERIALIZE COLUMN slo_rules SETTINGS mutations_sync = 2;
ALTER TABLE runs MODIFY COLUMN planned_steps REMOVE DEFAULT;
ALTER TABLE runs MODIFY COLUMN slo_rules REMOVE DEFAULT;
ALTER TABLE runs DROP COLUMN IF EXISTS planned_steps_json;
ALTER TABLE runs DROP COLUMN IF EXISTS slo_rules_json;

ALTER TABLE step_verdicts ADD COLUMN IF NOT EXISTS outcomes Array(Tuple(rule Tuple(name String, metric String,
        statistic String, comparator String, threshold Float64, source Nullable(String)), observed Nullable(Float64),
        passed Bool, reason Nullable(String)))
    DEFAULT JSONExtract(outcomes_json, 'Array(Tuple(rule Tuple(name String, metric String, statistic String,
        comparator String, threshold Float64, source Nullable(String)), observed Nullable(Float64), passed Bool,
        reason Nullable(String)))') AFTER passed;
ALTER TABLE step_verdicts MATERIALIZE COLUMN outcomes SETTINGS mutations_sync = 2;
ALTER TABLE step_verdicts MODIFY COLUMN outcomes REMOVE DEFAULT;
ALTER TABLE step_verdicts DROP COLUMN IF EXISTS outcomes_json;

ALTER TABLE capacity_fits ADD COLUMN IF NOT EXISTS segments Array(Tuple(from_x Float64, to_x Float64,
        intercept Float64, slope Float64, slope_std_err Nullable(Float64)))
    DEFAULT arrayMap(s -> CAST(tuple(s.1, s.2, s.3, s.4, s.5), 'Tuple(from_x Float64, to_x Float64,
        intercept Float64, slope Float64, slope_std_err Nullable(Float64))'), JSONExtract(segments_json,
        'Array(Tuple(fromX Float64, toX Float64, intercept Float64, slope Float64, slopeStdErr Nullable(Float64)))'))
    AFTER steps_used;
ALTER TABLE capacity_fits ADD COLUMN IF NOT EXISTS breakpoints Array(Tuple(x Float64, std_err Nullable(Float64),
        lower95 Nullable(Float64), upper95 Nullable(Float64)))
    DEFAULT arrayMap(b -> CAST(tuple(b.1, b.2, b.3, b.4), 'Tuple(x Float64, std_err Nullable(Float64),
        lower95 Nullable(Float64), upper95 Nullable(Float64))'), JSONExtract(breakpoints_json,
        'Array(Tuple(x Float64, stdErr Nullable(Float64), lower95 Nullable(Float64), upper95 Nullable(Float64)))'))
    AFTER segments;
ALTER TABLE capacity_fits MATERIALIZE COLUMN segments SETTINGS mutations_sync = 2;
ALTER TABLE capacity_fits MATERIALIZE COLUMN breakpoints SETTINGS mutations_sync = 2;
ALTER TABLE capacity_fits MODIFY COLUMN segments REMOVE DEFAULT;
ALTER TABLE capacity_fits MODIFY COLUMN breakpoints REMOVE DEFAULT;
ALTER TABLE capacity_fits DROP COLUMN IF EXISTS segments_json;
ALTER TABLE capacity_fits DROP COLUMN IF EXISTS breakpoints_json;
