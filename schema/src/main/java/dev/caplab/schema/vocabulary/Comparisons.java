package dev.caplab.schema.vocabulary;

import dev.caplab.schema.event.Comparator;

/**
 * How an SLO rule's comparison is written for people: {@code <}, {@code ≤}, {@code >}, {@code ≥}, {@code =}. The one
 * table; a verdict's reason, the report's opening sentence and the throughput chart's legends use it.
 */
public final class Comparisons {

    private Comparisons() {
    }

    /** The comparison's symbol. */
    public static String symbol(Comparator comparator) {
        return switch (comparator) {
            case LT -> "<";
            case LE -> "≤";
            case GT -> ">";
            case GE -> "≥";
            case EQ -> "=";
        };
    }
}
