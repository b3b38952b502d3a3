package dev.caplab.query.sql;

import dev.caplab.query.QueryApiProperties;
import java.util.concurrent.Semaphore;
import org.springframework.stereotype.Component;

/**
 * How many SQL-endpoint statements run at once ({@code caplab.query.sql.max-concurrent-queries}). One more is turned
 * away at once rather than queued: a queue of readers in front of the engine is what starved the pipeline.
 */
@Component
class QuerySlots {

    private final Semaphore permits;
    private final int limit;

    QuerySlots(QueryApiProperties properties) {
        this.limit = properties.sql().maxConcurrentQueries();
        this.permits = new Semaphore(limit);
    }

    /**
     * A slot, to be closed when the statement is done.
     *
     * @throws SqlBusyException when all slots are taken
     */
    Slot acquire() {
        if (!permits.tryAcquire()) {
            throw new SqlBusyException(limit);
        }
        return new Slot();
    }

    /** Slots free right now. */
    int free() {
        return permits.availablePermits();
    }

    /** One running statement's hold on a slot; closing it twice frees one slot only. */
    final class Slot implements AutoCloseable {
        private boolean released;

        @Override
        public synchronized void close() {
            if (!released) {
                released = true;
                permits.release();
            }
        }
    }
}
