package dev.caplab.ingest.otlp;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Running totals of OTLP delta series, so a delta sum or histogram is stored as the cumulative counter streams turns
 * into rates (its rate compares consecutive values; consecutive deltas compared that way would be nonsense). A
 * request's additions stay pending until its Kafka transaction committed ({@link Batch#commit()}): a 503 and the
 * client's retry never count a delta twice. Requests carrying deltas are serialised ({@link #begin()} holds a lock
 * until the batch closes) so two of them never add to the same stale total.
 *
 * <p>Totals live in memory, at most {@code maxSeries} of them (least recently used dropped first). A series whose
 * total is unknown (new, dropped, or caplab restarted) starts again with a zero at its point's start time: to the
 * counter rate that is a reset, so the increase is counted from zero and nothing is lost or doubled.
 */
public final class DeltaTotals {

    /** Series whose totals are kept: beyond it the least recently written is forgotten (and restarts from zero). */
    public static final int DEFAULT_MAX_SERIES = 200_000;

    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Double> totals;

    public DeltaTotals(int maxSeries) {
        if (maxSeries < 1) {
            throw new IllegalArgumentException("maxSeries must be >= 1, was " + maxSeries);
        }
        this.totals = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Double> eldest) {
                return size() > maxSeries;
            }
        };
    }

    /** Starts the additions of one request; holds the lock until {@link Batch#close()}. */
    public Batch begin() {
        lock.lock();
        return new Batch();
    }

    /** The additions of one request, visible to it at once and to later requests once committed. */
    public final class Batch implements AutoCloseable {

        private final Map<String, Double> pending = new HashMap<>();
        private boolean open = true;

        private Batch() {
        }

        /** The series' total before this addition, or null when it is unknown. */
        public Double total(String series) {
            Double p = pending.get(series);
            return p != null ? p : totals.get(series);
        }

        /** Adds {@code delta} to the series (from zero when unknown) and returns the new total. */
        public double add(String series, double delta) {
            Double before = total(series);
            double after = (before == null ? 0 : before) + delta;
            pending.put(series, after);
            return after;
        }

        /** The request was acknowledged: its additions become the totals later requests add to. */
        public void commit() {
            totals.putAll(pending);
            pending.clear();
        }

        @Override
        public void close() {
            if (open) {
                open = false;
                lock.unlock();
            }
        }
    }
}
