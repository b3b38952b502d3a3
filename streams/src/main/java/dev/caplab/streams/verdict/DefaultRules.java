package dev.caplab.streams.verdict;

import dev.caplab.analysis.verdict.Verdicts;
import dev.caplab.schema.event.SloRule;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * SLO rules for runs that bring none of their own ({@code caplab up --default-slo}): those of the run's system when
 * some were given for it by name, else those given for every system. A run's own rules always win. Each rule must be
 * one that can be judged ({@link Verdicts#accepted}).
 */
public record DefaultRules(List<SloRule> everySystem, Map<String, List<SloRule>> bySystem) {

    /** No default: a run without rules is not judged. */
    public static final DefaultRules NONE = new DefaultRules(List.of(), Map.of());

    public DefaultRules {
        everySystem = List.copyOf(everySystem);
        bySystem = Map.copyOf(Objects.requireNonNull(bySystem, "bySystem"));
        everySystem.forEach(Verdicts::accepted);
        bySystem.forEach((system, rules) -> {
            if (rules.isEmpty()) {
                throw new IllegalArgumentException("default SLO rules for system '" + system + "': none given");
            }
            rules.forEach(Verdicts::accepted);
        });
    }

    /** The default rules of the system named {@code system} (the run's SUT name, may be null); empty when none. */
    public Optional<List<SloRule>> forSystem(String system) {
        List<SloRule> own = system == null ? null : bySystem.get(system);
        if (own != null) {
            return Optional.of(List.copyOf(own));
        }
        return everySystem.isEmpty() ? Optional.empty() : Optional.of(everySystem);
    }
}
