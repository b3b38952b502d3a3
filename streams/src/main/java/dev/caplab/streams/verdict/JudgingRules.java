package dev.caplab.streams.verdict;

import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.SloRule;
import java.util.List;
import java.util.Objects;

/**
 * The SLO rules a run's steps are judged against and where they came from: the run's own, the configured default
 * for its system ({@link DefaultRules}), or none, in which case no step is judged and the run has no max stable load.
 */
public record JudgingRules(List<SloRule> rules, Origin origin) {

    /** Where a run's rules came from; its name is what the conclusion's {@code rulesFrom} stores. */
    public enum Origin {
        RUN, DEFAULT, NONE;

        /** The stored form: {@code run}, {@code default}, {@code none}. */
        public String stored() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public JudgingRules {
        rules = List.copyOf(rules);
        Objects.requireNonNull(origin, "origin");
        if (rules.isEmpty() != (origin == Origin.NONE)) {
            throw new IllegalArgumentException(rules.size() + " rules from " + origin);
        }
    }

    /** The rules of the run started by {@code started} (null when no start is known yet) with {@code defaults}. */
    public static JudgingRules of(RunStarted started, DefaultRules defaults) {
        if (started != null && !started.getSloRules().isEmpty()) {
            return new JudgingRules(started.getSloRules(), Origin.RUN);
        }
        String system = started == null || started.getSut() == null || started.getSut().getName() == null ? null
                : started.getSut().getName().toString();
        return defaults.forSystem(system).map(r -> new JudgingRules(r, Origin.DEFAULT))
                .orElse(new JudgingRules(List.of(), Origin.NONE));
    }

    /** Whether the steps are judged at all. */
    public boolean judging() {
        return origin != Origin.NONE;
    }
}
