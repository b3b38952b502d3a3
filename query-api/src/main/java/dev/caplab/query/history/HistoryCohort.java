package dev.caplab.query.history;

import dev.caplab.store.access.RunFilter;
import dev.caplab.query.runs.RunReader;
import dev.caplab.query.runs.RunSummary;
import dev.caplab.query.web.BadRequestParameterException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The runs a history follows: one system under test on one tier, driven by one tool under one load expression (the
 * same figures mean something else on another server, tier or x), oldest first. The parameters given narrow the
 * runs; what they leave open must have one value across the matching runs, else the request is ambiguous. Runs still
 * RUNNING are left out ({@code running} counts them): their steps and fits are not final, and a half-done newest run
 * would read as a change.
 */
record HistoryCohort(String sut, String tier, String tool, String loadExpression, List<RunSummary> runs,
                     int matching, int running) {

    /** The newest runs a history covers: change detection is cubic in the number of runs. */
    static final int MAX_RUNS = 100;
    private static final String NONE = "(none)";

    HistoryCohort {
        runs = List.copyOf(runs);
    }

    static HistoryCohort select(RunReader reader, Optional<String> sut, Optional<String> tier, Optional<String> tool,
                                Optional<String> loadExpression) {
        List<RunSummary> found = reader.find(new RunFilter(sut.orElse(null), null, null, null, tier.orElse(null),
                tool.orElse(null), Map.of(), null, null, RunFilter.MAX_LIMIT, 0)).stream()
                .filter(r -> loadExpression.isEmpty() || loadExpression.get().equals(r.loadExpression()))
                .toList();
        if (found.isEmpty()) {
            throw new BadRequestParameterException(firstGiven(sut, tier, tool, loadExpression),
                    asked(sut, tier, tool, loadExpression), "no run matches; a history needs runs of one system,"
                            + " tier, tool and load expression");
        }
        requireOne("sut", found, RunSummary::sutName);
        requireOne("tier", found, RunSummary::tier);
        requireOne("tool", found, RunSummary::tool);
        requireOne("loadExpression", found, RunSummary::loadExpression);
        RunSummary any = found.getFirst();
        List<RunSummary> ended = found.stream().filter(r -> !RunSummary.RUNNING.equals(r.status())).toList();
        if (ended.isEmpty()) {
            throw new BadRequestParameterException(firstGiven(sut, tier, tool, loadExpression),
                    asked(sut, tier, tool, loadExpression), "the " + found.size() + " matching runs are all still"
                            + " running; a history shows ended runs");
        }
        List<RunSummary> oldestFirst = new ArrayList<>(ended.subList(0, Math.min(MAX_RUNS, ended.size())));
        oldestFirst.sort(Comparator.comparing(RunSummary::startedAt, Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparing(RunSummary::runId));
        return new HistoryCohort(any.sutName(), any.tier(), any.tool(), any.loadExpression(), oldestFirst,
                ended.size(), found.size() - ended.size());
    }

    String label() {
        return sut + " on tier " + tier + " with " + tool + " under load " + loadExpression;
    }

    private static void requireOne(String parameter, List<RunSummary> runs, Function<RunSummary, String> field) {
        TreeSet<String> values = new TreeSet<>();
        runs.forEach(r -> values.add(Objects.requireNonNullElse(field.apply(r), NONE)));
        if (values.size() > 1) {
            throw new BadRequestParameterException(parameter, "", "ambiguous: the " + runs.size() + " matching runs"
                    + " span " + parameter + " " + values + "; pass " + parameter + "= to choose one");
        }
    }

    private static String firstGiven(Optional<String> sut, Optional<String> tier, Optional<String> tool,
                                     Optional<String> loadExpression) {
        return sut.isPresent() ? "sut" : tier.isPresent() ? "tier" : tool.isPresent() ? "tool"
                : loadExpression.isPresent() ? "loadExpression" : "sut";
    }

    private static String asked(Optional<String> sut, Optional<String> tier, Optional<String> tool,
                                Optional<String> loadExpression) {
        List<String> parts = new ArrayList<>();
        sut.ifPresent(v -> parts.add("sut=" + v));
        tier.ifPresent(v -> parts.add("tier=" + v));
        tool.ifPresent(v -> parts.add("tool=" + v));
        loadExpression.ifPresent(v -> parts.add("loadExpression=" + v));
        return parts.isEmpty() ? "(no filter: no runs stored)" : String.join(", ", parts);
    }
}
