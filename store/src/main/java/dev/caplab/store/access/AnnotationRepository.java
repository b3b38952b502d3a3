package dev.caplab.store.access;

import dev.caplab.schema.event.Annotation;

import dev.caplab.store.schema.Table;
import javax.sql.DataSource;

/** Timeline notes of runs; an identical replayed note collapses onto the original. */
public final class AnnotationRepository extends RunScopedRepository<Annotation> {

    static final RowCodec<Annotation> CODEC = RowCodec.derived(Table.ANNOTATIONS.sqlName(), Annotation.class, true);

    public AnnotationRepository(DataSource dataSource) {
        this(dataSource, null);
    }

    /** Reads through {@code dataSource}; inserts straight into the in-process engine when {@code direct} is set. */
    public AnnotationRepository(DataSource dataSource, EngineInserts direct) {
        super(dataSource, CODEC, "at, text", direct);
    }
}
