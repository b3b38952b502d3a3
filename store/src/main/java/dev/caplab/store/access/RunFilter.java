package dev.caplab.store.access;

import java.time.Instant;
import java.util.Map;

/**
 * Which runs to list: exact matches on the given fields (null or empty: no filter), every label
 * {@code key=value} in {@code labels}, a start-time range [{@code from}, {@code to}), a status, an order and a page.
 *
 * @param from       started at or after, or null
 * @param to         started before, or null
 * @param limit      at most this many runs, 1 to {@link #MAX_LIMIT}
 * @param offset     runs skipped before the page, in the filter's order
 * @param status     RUNNING, COMPLETED, ABORTED…, or null for any
 * @param sort       the order (ties: newest first, then by run id); null is newest first
 * @param descending the sort column's values from largest to smallest
 * @param loadExpression the runs' load expression (users, rooms…), or null for any
 */
public record RunFilter(String sutName, String sutVersion, String provider, String region, String tier, String tool,
                        Map<String, String> labels, Instant from, Instant to, int limit, int offset, String status,
                        RunSort sort, boolean descending, String loadExpression) {

    /** The largest page a filter may ask for. */
    public static final int MAX_LIMIT = 1000;

    /** What runs can be ordered by: each is one column of the runs table. */
    public enum RunSort {
        STARTED_AT("started_at"), ENDED_AT("ended_at"), RUN_ID("run_id"), SUT("sut_name"), VERSION("sut_version"),
        PROVIDER("provider"), REGION("region"), TIER("tier"), VCPU("vcpu"), TOOL("tool"), STATUS("status");

        /** The column it orders by. */
        public final String column;

        RunSort(String column) {
            this.column = column;
        }
    }

    /** Any load expression. */
    public RunFilter(String sutName, String sutVersion, String provider, String region, String tier, String tool,
                     Map<String, String> labels, Instant from, Instant to, int limit, int offset, String status,
                     RunSort sort, boolean descending) {
        this(sutName, sutVersion, provider, region, tier, tool, labels, from, to, limit, offset, status, sort,
                descending, null);
    }

    /** Any status and load expression, newest first. */
    public RunFilter(String sutName, String sutVersion, String provider, String region, String tier, String tool,
                     Map<String, String> labels, Instant from, Instant to, int limit, int offset) {
        this(sutName, sutVersion, provider, region, tier, tool, labels, from, to, limit, offset, null, null, true);
    }

    public RunFilter {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        sort = sort == null ? RunSort.STARTED_AT : sort;
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new InvalidRunFilterException("limit", limit, "must be between 1 and " + MAX_LIMIT);
        }
        if (offset < 0) {
            throw new InvalidRunFilterException("offset", offset, "must not be negative");
        }
        if (from != null && to != null && from.isAfter(to)) {
            throw new InvalidRunFilterException("from", from, "is after to=" + to);
        }
    }

    /** No restriction, the newest 100 runs. */
    public static RunFilter all() {
        return new RunFilter(null, null, null, null, null, null, Map.of(), null, null, 100, 0);
    }

    /** The newest {@code limit} runs of one system under test (of every system when {@code sutName} is null). */
    public static RunFilter ofSystem(String sutName, int limit) {
        return new RunFilter(sutName, null, null, null, null, null, Map.of(), null, null, limit, 0);
    }

    /** Same filter restricted to one provider. */
    public RunFilter withProvider(String name) {
        return new RunFilter(sutName, sutVersion, name, region, tier, tool, labels, from, to, limit, offset, status,
                sort, descending, loadExpression);
    }

    /** Same filter restricted to one tier. */
    public RunFilter withTier(String name) {
        return new RunFilter(sutName, sutVersion, provider, region, name, tool, labels, from, to, limit, offset, status,
                sort, descending, loadExpression);
    }

    /** A filter component that cannot be used, named with the offending value. */
    public static final class InvalidRunFilterException extends IllegalArgumentException {

        private final String component;
        private final transient Object value;
        private final String reason;

        InvalidRunFilterException(String component, Object value, String reason) {
            super("run filter " + component + " = '" + value + "': " + reason);
            this.component = component;
            this.value = value;
            this.reason = reason;
        }

        /** The component refused: {@code limit}, {@code offset} or {@code from}. */
        public String component() {
            return component;
        }

        public Object value() {
            return value;
        }

        /** Why it was refused, e.g. "must not be negative". */
        public String reason() {
            return reason;
        }
    }
}
