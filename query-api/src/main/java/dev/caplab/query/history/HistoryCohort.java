package dev.caplab.query.history;

import dev.caplab.store.access.RunFilter;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.row.RunKindCount;
import dev.caplab.store.row.RunRow;
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
record HistoryCohort(String sut, String tier, String tool, String loadExpression, List<RunRow> runs,
                     int matching, int running) {

    /** The newest runs a history covers: change detection is cubic in the number of runs. */
    static final int MAX_RUNS = 100;
    private static final String NONE = "(none)";

    HistoryCohort {
        runs = List.copyOf(runs);
    }

    static HistoryCohort select(RunRepository reader, Optional<String> sut, Optional<String> tier, Optional<String> tool,
                                Optional<String> loadExpression) {
        RunFilter matching = filter(sut, tier, tool, loadExpression, RunFilter.MAX_LIMIT);
        List<RunKindCount> kinds = reader.kinds(matching);
        long total = kinds.stream().mapToLong(RunKindCount::runs).sum();
        if (total == 0) {
            throw new BadRequestParameterException(firstGiven(sut, tier, tool, loadExpression),
                    asked(sut, tier, tool, loadExpression), "no run matches; a history needs runs of one system,"
                            + " tier, tool and load expression");
        }
        requireOne("sut", kinds, total, RunKindCount::sutName);
        requireOne("tier", kinds, total, RunKindCount::tier);
        requireOne("tool", kinds, total, RunKindCount::tool);
        requireOne("loadExpression", kinds, total, RunKindCount::loadExpression);
        long running = kinds.stream().filter(HistoryCohort::running).mapToLong(RunKindCount::runs).sum();
        if (running == total) {
            throw new BadRequestParameterException(firstGiven(sut, tier, tool, loadExpression),
                    asked(sut, tier, tool, loadExpression), "the " + total + " matching runs are all still"
                            + " running; a history shows ended runs");
        }
        // the newest page holds the newest MAX_RUNS ended runs unless more than MAX_LIMIT - MAX_RUNS are running
        int page = (int) Math.min(RunFilter.MAX_LIMIT, MAX_RUNS + running);
        List<RunRow> oldestFirst = new ArrayList<>(reader.find(filter(sut, tier, tool,
                loadExpression, page)).stream().filter(r -> !RunRow.RUNNING.equals(r.status())).limit(MAX_RUNS).toList());
        oldestFirst.sort(Comparator.comparing(RunRow::startedAt, Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparing(RunRow::runId));
        RunKindCount any = kinds.getFirst();
        return new HistoryCohort(any.sutName(), any.tier(), any.tool(), any.loadExpression(), oldestFirst,
                (int) (total - running), (int) running);
    }

    private static RunFilter filter(Optional<String> sut, Optional<String> tier, Optional<String> tool,
                                    Optional<String> loadExpression, int limit) {
        return new RunFilter(sut.orElse(null), null, null, null, tier.orElse(null), tool.orElse(null), Map.of(),
                null, null, limit, 0, null, null, true, loadExpression.orElse(null));
    }

    private static boolean running(RunKindCount kind) {
        return RunRow.RUNNING.equals(RunRow.statusOf(kind.status()));
    }

    String label() {
        return sut + " on tier " + tier + " with " + tool + " under load " + loadExpression;
    }

    private static void requireOne(String parameter, List<RunKindCount> kinds, long total,
                                   Function<RunKindCount, String> field) {
        TreeSet<String> values = new TreeSet<>();
        kinds.forEach(k -> values.add(Objects.requireNonNullElse(field.apply(k), NONE)));
        if (values.size() > 1) {
            throw new BadRequestParameterException(parameter, "", "ambiguous: the " + total + " matching runs"
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
