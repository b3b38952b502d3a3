package dev.caplab.query.runs;

import dev.caplab.store.row.RunKindCount;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What the pages offer to choose among, over every stored run: each filter's values with how many runs carry them,
 * and the cohorts (system, tier, tool, load expression) a history can follow. Values are sorted; an absent value
 * (a run without a tier, say) is left out.
 */
public record RunChoices(
        @Schema(description = "systems under test, each with its number of runs") List<Choice> systems,
        @Schema(description = "system versions") List<Choice> versions,
        @Schema(description = "machine tiers") List<Choice> tiers,
        @Schema(description = "providers") List<Choice> providers,
        @Schema(description = "load tools") List<Choice> tools,
        @Schema(description = "run statuses (RUNNING, COMPLETED, ABORTED)") List<Choice> statuses,
        @Schema(description = "load expressions (the fits' x)") List<Choice> loadExpressions,
        @Schema(description = "runs of one system on one tier, with one tool under one load expression; most runs"
                + " first") List<Cohort> cohorts) {

    /** One value of a filter and the number of runs that carry it. */
    public record Choice(@Schema(description = "the value, as the runs list's filter takes it") String value,
                         @Schema(description = "runs with this value") long runs) {
    }

    /** A cohort and its number of runs. */
    public record Cohort(@Schema(description = "system under test") String sut,
                         @Schema(description = "machine tier; empty when its runs gave none") String tier,
                         @Schema(description = "load tool; empty when its runs gave none") String tool,
                         @Schema(description = "load expression (the fits' x); empty when its runs gave none")
                         String loadExpression,
                         @Schema(description = "runs in the cohort") long runs) {
    }

    /** Sums {@code kinds} (runs counted by every filter's value at once) filter by filter. */
    static RunChoices of(List<RunKindCount> kinds) {
        Map<List<String>, Long> cohorts = new TreeMap<>(Comparator.comparing(Object::toString));
        for (RunKindCount k : kinds) {
            cohorts.merge(List.of(k.sutName(), text(k.tier()), text(k.tool()), text(k.loadExpression())), k.runs(),
                    Long::sum);
        }
        return new RunChoices(count(kinds, RunKindCount::sutName), count(kinds, RunKindCount::sutVersion),
                count(kinds, RunKindCount::tier), count(kinds, RunKindCount::provider),
                count(kinds, RunKindCount::tool), count(kinds, RunKindCount::status),
                count(kinds, RunKindCount::loadExpression),
                cohorts.entrySet().stream().map(e -> new Cohort(e.getKey().get(0), e.getKey().get(1),
                        e.getKey().get(2), e.getKey().get(3), e.getValue()))
                        .sorted(Comparator.comparingLong(Cohort::runs).reversed()).toList());
    }

    private static List<Choice> count(List<RunKindCount> kinds, Function<RunKindCount, String> value) {
        Map<String, Long> out = new TreeMap<>();
        kinds.stream().filter(k -> value.apply(k) != null && !value.apply(k).isEmpty())
                .forEach(k -> out.merge(value.apply(k), k.runs(), Long::sum));
        return out.entrySet().stream().map(e -> new Choice(e.getKey(), e.getValue())).toList();
    }

    private static String text(String v) {
        return Objects.requireNonNullElse(v, "");
    }
}
