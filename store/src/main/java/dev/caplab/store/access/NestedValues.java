package dev.caplab.store.access;

import dev.caplab.store.row.BreakpointValue;
import dev.caplab.store.row.RuleOutcomeValue;
import dev.caplab.store.row.SegmentValue;
import dev.caplab.store.row.SloRuleValue;
import java.util.List;
import java.util.function.Function;

/**
 * The nested values of rows as the driver binds and returns ClickHouse {@code Tuple}s: an {@code Object[]} per
 * tuple, elements in the column's declared order (V006__typed_nested_values.sql). Encoding and decoding of each
 * value sit side by side so they cannot drift apart.
 */
final class NestedValues {

    private NestedValues() {
    }

    /** {@code Tuple(name, metric, statistic, comparator, threshold, source Nullable)}. */
    static Object[] sloRule(SloRuleValue r) {
        return new Object[] {r.name(), r.metric(), r.statistic(), r.comparator(), r.threshold(), r.source()};
    }

    static SloRuleValue sloRule(Object[] t) {
        return new SloRuleValue((String) t[0], (String) t[1], (String) t[2], (String) t[3], number(t[4]),
                (String) t[5]);
    }

    /** {@code Tuple(rule Tuple(...), observed Nullable, passed, reason Nullable)}. */
    static Object[] outcome(RuleOutcomeValue o) {
        return new Object[] {sloRule(o.rule()), o.observed(), o.passed(), o.reason()};
    }

    static RuleOutcomeValue outcome(Object[] t) {
        return new RuleOutcomeValue(sloRule((Object[]) t[0]), nullableNumber(t[1]), (Boolean) t[2], (String) t[3]);
    }

    /** {@code Tuple(from_x, to_x, intercept, slope, slope_std_err Nullable)}. */
    static Object[] segment(SegmentValue s) {
        return new Object[] {s.fromX(), s.toX(), s.intercept(), s.slope(), s.slopeStdErr()};
    }

    static SegmentValue segment(Object[] t) {
        return new SegmentValue(number(t[0]), number(t[1]), number(t[2]), number(t[3]), nullableNumber(t[4]));
    }

    /** {@code Tuple(x, std_err Nullable, lower95 Nullable, upper95 Nullable)}. */
    static Object[] breakpoint(BreakpointValue b) {
        return new Object[] {b.x(), b.stdErr(), b.lower95(), b.upper95()};
    }

    static BreakpointValue breakpoint(Object[] t) {
        return new BreakpointValue(number(t[0]), nullableNumber(t[1]), nullableNumber(t[2]), nullableNumber(t[3]));
    }

    /** An {@code Array(Tuple(...))} value to bind. */
    static <T> List<Object[]> tuples(List<T> values, Function<T, Object[]> encode) {
        return values.stream().map(encode).toList();
    }

    private static double number(Object v) {
        return ((Number) v).doubleValue();
    }

    private static Double nullableNumber(Object v) {
        return v == null ? null : ((Number) v).doubleValue();
    }
}
