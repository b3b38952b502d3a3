-- The bottleneck's role (sut or host), as streams decided it from the series' own role: readers read it and decide
-- nothing. Rows already stored are given the role their reader used to take from the estimates: the bottleneck's
-- own estimate's, else the first role among its source's other estimates (null when none has one, and when the
-- conclusion names no bottleneck).
ALTER TABLE run_conclusions ADD COLUMN IF NOT EXISTS bottleneck_role LowCardinality(Nullable(String))
    DEFAULT if(bottleneck_metric IS NULL, NULL,
        coalesce(tupleElement(arrayFirst(e -> tupleElement(e, 'source') = bottleneck_source
                AND tupleElement(e, 'metric') = bottleneck_metric, resources), 'role'),
            arrayFirst(r -> r IS NOT NULL, arrayMap(e -> if(tupleElement(e, 'source') = bottleneck_source,
                tupleElement(e, 'role'), NULL), resources))))
    AFTER bottleneck_step_index;
ALTER TABLE run_conclusions MATERIALIZE COLUMN bottleneck_role SETTINGS mutations_sync = 2;
ALTER TABLE run_conclusions MODIFY COLUMN bottleneck_role REMOVE DEFAULT;
