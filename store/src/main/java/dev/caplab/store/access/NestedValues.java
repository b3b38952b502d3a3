package dev.caplab.store.access;

import dev.caplab.store.row.BreakpointValue;
import dev.caplab.store.row.ResourceEstimateValue;
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

    /**
     * {@code Tuple(source, metric, intercept, slope, intercept_variance N, slope_variance N, covariance N,
     * residual_std_err N, degrees_of_freedom, pre_knee_steps, r_squared N, from_x, to_x, ceiling N, safe_capacity_x N,
     * safe_capacity_std_err N, safe_capacity_lower95 N, safe_capacity_upper95 N, capped_by_cliff, knee_x N, cliff,
     * cliff_step_index N, last_stable_x N, role N)} (N: Nullable).
     */
    static Object[] estimate(ResourceEstimateValue e) {
        return new Object[] {e.source(), e.metric(), e.intercept(), e.slope(), e.interceptVariance(),
            e.slopeVariance(), e.covariance(), e.residualStdErr(), e.degreesOfFreedom(), e.preKneeSteps(),
            e.rSquared(), e.fromX(), e.toX(), e.ceiling(), e.safeCapacityX(), e.safeCapacityStdErr(),
            e.safeCapacityLower95(), e.safeCapacityUpper95(), e.cappedByCliff(), e.kneeX(), e.cliff(),
            e.cliffStepIndex(), e.lastStableX(), e.role()};
    }

    static ResourceEstimateValue estimate(Object[] t) {
        return new ResourceEstimateValue((String) t[0], (String) t[1], number(t[2]), number(t[3]),
                nullableNumber(t[4]), nullableNumber(t[5]), nullableNumber(t[6]), nullableNumber(t[7]),
                ((Number) t[8]).intValue(), ((Number) t[9]).intValue(), nullableNumber(t[10]), number(t[11]),
                number(t[12]), nullableNumber(t[13]), nullableNumber(t[14]), nullableNumber(t[15]),
                nullableNumber(t[16]), nullableNumber(t[17]), (Boolean) t[18], nullableNumber(t[19]),
                (Boolean) t[20], t[21] == null ? null : ((Number) t[21]).intValue(), nullableNumber(t[22]),
                (String) t[23]);
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
