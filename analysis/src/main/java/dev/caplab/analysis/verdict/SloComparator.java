package dev.caplab.analysis.verdict;

/** The comparison of an SLO rule, mirroring the Avro {@code Comparator} enum (LT, LE, GT, GE, EQ). */
public enum SloComparator {
    LT, LE, GT, GE, EQ;

    /** Whether {@code observed} (comparator) {@code threshold} holds; EQ is exact, for counts such as dropped sessions. */
    public boolean holds(double observed, double threshold) {
        return switch (this) {
            case LT -> observed < threshold;
            case LE -> observed <= threshold;
            case GT -> observed > threshold;
            case GE -> observed >= threshold;
            case EQ -> observed == threshold;
        };
    }

    /** The comparison as people write it: {@code <}, {@code ≤}, {@code >}, {@code ≥}, {@code =}. */
    public String symbol() {
        return switch (this) {
            case LT -> "<";
            case LE -> "≤";
            case GT -> ">";
            case GE -> "≥";
            case EQ -> "=";
        };
    }
}
