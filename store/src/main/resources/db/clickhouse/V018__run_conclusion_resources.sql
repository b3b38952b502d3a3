-- Each resource's capacity estimate of a run conclusion as a typed tuple (store/access/NestedValues), no longer the
-- text of Avro's JSON encoding in resources_json, whose nullable fields are wrapped ({"double": 0.5}). Rows already
-- stored are converted once: each element of the JSON array is read field by field, a wrapped value through its
-- branch ('double', 'int', 'string'; null stays null); then the text column goes. A rebuild writes the same values.
ALTER TABLE run_conclusions ADD COLUMN IF NOT EXISTS resources Array(Tuple(source String, metric String, intercept Float64, slope Float64,
        intercept_variance Nullable(Float64), slope_variance Nullable(Float64), covariance Nullable(Float64),
        residual_std_err Nullable(Float64), degrees_of_freedom Int32, pre_knee_steps Int32, r_squared Nullable(Float64),
        from_x Float64, to_x Float64, ceiling Nullable(Float64), safe_capacity_x Nullable(Float64),
        safe_capacity_std_err Nullable(Float64), safe_capacity_lower95 Nullable(Float64),
        safe_capacity_upper95 Nullable(Float64), capped_by_cliff Bool, knee_x Nullable(Float64), cliff Bool,
        cliff_step_index Nullable(Int32), last_stable_x Nullable(Float64), role Nullable(String)))
    DEFAULT arrayMap(e -> CAST(tuple(JSONExtractString(e, 'source'), JSONExtractString(e, 'metric'),
        JSONExtractFloat(e, 'intercept'), JSONExtractFloat(e, 'slope'),
        JSONExtract(e, 'interceptVariance', 'double', 'Nullable(Float64)'),
        JSONExtract(e, 'slopeVariance', 'double', 'Nullable(Float64)'),
        JSONExtract(e, 'covariance', 'double', 'Nullable(Float64)'),
        JSONExtract(e, 'residualStdErr', 'double', 'Nullable(Float64)'),
        toInt32(JSONExtractInt(e, 'degreesOfFreedom')), toInt32(JSONExtractInt(e, 'preKneeSteps')),
        JSONExtract(e, 'rSquared', 'double', 'Nullable(Float64)'),
        JSONExtractFloat(e, 'fromX'), JSONExtractFloat(e, 'toX'),
        JSONExtract(e, 'ceiling', 'double', 'Nullable(Float64)'),
        JSONExtract(e, 'safeCapacityX', 'double', 'Nullable(Float64)'),
        JSONExtract(e, 'safeCapacityStdErr', 'double', 'Nullable(Float64)'),
        JSONExtract(e, 'safeCapacityLower95', 'double', 'Nullable(Float64)'),
        JSONExtract(e, 'safeCapacityUpper95', 'double', 'Nullable(Float64)'),
        JSONExtractBool(e, 'cappedByCliff'),
        JSONExtract(e, 'kneeX', 'double', 'Nullable(Float64)'),
        JSONExtractBool(e, 'cliff'),
        JSONExtract(e, 'cliffStepIndex', 'int', 'Nullable(Int32)'),
        JSONExtract(e, 'lastStableX', 'double', 'Nullable(Float64)'),
        JSONExtract(e, 'role', 'string', 'Nullable(String)')), 'Tuple(source String, metric String, intercept Float64, slope Float64,
        intercept_variance Nullable(Float64), slope_variance Nullable(Float64), covariance Nullable(Float64),
        residual_std_err Nullable(Float64), degrees_of_freedom Int32, pre_knee_steps Int32, r_squared Nullable(Float64),
        from_x Float64, to_x Float64, ceiling Nullable(Float64), safe_capacity_x Nullable(Float64),
        safe_capacity_std_err Nullable(Float64), safe_capacity_lower95 Nullable(Float64),
        safe_capacity_upper95 Nullable(Float64), capped_by_cliff Bool, knee_x Nullable(Float64), cliff Bool,
        cliff_step_index Nullable(Int32), last_stable_x Nullable(Float64), role Nullable(String))'), JSONExtractArrayRaw(resources_json))
    AFTER resources_json;
ALTER TABLE run_conclusions MATERIALIZE COLUMN resources SETTINGS mutations_sync = 2;
ALTER TABLE run_conclusions MODIFY COLUMN resources REMOVE DEFAULT;
ALTER TABLE run_conclusions DROP COLUMN IF EXISTS resources_json;
