package dev.caplab.sink;

import dev.caplab.schema.health.RoleStatus;
import dev.caplab.store.access.EngineInserts;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * Several {@link ClickHouseSink}s in one process and one consumer group, so the group's partitions are copied in
 * parallel: a sink decodes and encodes one batch while another's batch is in ClickHouse. Why: one sink runs its
 * batches strictly one after the other (decode, encode, insert, commit), so behind a backlog it kept about one core
 * of two busy while ingest's backlog waited in Kafka (PipelineBench, bench/README.md). Each worker is a sink like
 * those of separate processes: the same dedup contract, intents and rebalancing apply.
 */
public final class SinkWorkers implements AutoCloseable {

    private final List<ClickHouseSink> workers;

    private SinkWorkers(List<ClickHouseSink> workers) {
        this.workers = List.copyOf(workers);
    }

    /**
     * Starts {@code count} sinks with {@code settings}; one keeps the plain thread name, more are numbered
     * ({@code caplab-sink-1}, ...).
     */
    public static SinkWorkers start(int count, SinkSettings settings, DataSource dataSource, EngineInserts direct) {
        if (count < 1) {
            throw new IllegalArgumentException("sink workers must be >= 1, was " + count);
        }
        List<ClickHouseSink> started = new ArrayList<>();
        try {
            for (int i = 1; i <= count; i++) {
                started.add(ClickHouseSink.start(settings, dataSource, direct,
                        count == 1 ? ClickHouseSink.THREAD_NAME : ClickHouseSink.THREAD_NAME + "-" + i));
            }
        } catch (RuntimeException e) {
            started.forEach(ClickHouseSink::close);
            throw e;
        }
        return new SinkWorkers(started);
    }

    /** Up while every worker is; the detail is each worker's, numbered. */
    public RoleStatus status() {
        List<RoleStatus> each = workers.stream().map(ClickHouseSink::status).toList();
        if (each.size() == 1) {
            return each.getFirst();
        }
        String detail = java.util.stream.IntStream.range(0, each.size())
                .mapToObj(i -> "worker " + (i + 1) + ": " + each.get(i).detail())
                .collect(Collectors.joining("; "));
        return new RoleStatus("sink", each.stream().allMatch(RoleStatus::up), detail);
    }

    /** Rows each worker has written, in worker order. */
    public List<Long> rowsWrittenPerWorker() {
        return workers.stream().map(ClickHouseSink::rowsWritten).toList();
    }

    @Override
    public void close() {
        workers.forEach(ClickHouseSink::close);
    }
}
