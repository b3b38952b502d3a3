package dev.caplab.store.access;

import dev.caplab.store.row.AnnotationRow;

import dev.caplab.store.schema.Table;
import javax.sql.DataSource;
import java.util.List;

/** Timeline notes of runs; an identical replayed note collapses onto the original. */
public final class AnnotationRepository extends RunScopedRepository<AnnotationRow> {

    private static final RowCodec<AnnotationRow> CODEC = new RowCodec<>(Table.ANNOTATIONS.sqlName(),
            List.of("run_id", "at", "text", "labels"), true,
            (p, r) -> p.addAll(r.runId(), r.at(), r.text(), r.labels()),
            rs -> {
                Fields f = new Fields(rs);
                return new AnnotationRow(f.string(), f.instant(), f.string(), f.stringMap());
            });

    public AnnotationRepository(DataSource dataSource) {
        this(dataSource, null);
    }

    /** Reads through {@code dataSource}; inserts straight into the in-process engine when {@code direct} is set. */
    public AnnotationRepository(DataSource dataSource, EngineInserts direct) {
        super(dataSource, CODEC, "at, text", direct);
    }
}
