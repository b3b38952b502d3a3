package dev.caplab.store.access;

import dev.caplab.schema.event.StepVerdict;
import dev.caplab.store.row.RunStep;
import dev.caplab.store.row.StepRow;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The steps runs have, each with its verdict ({@link RunStep#of}): read from the stored steps and verdicts, which the
 * two repositories read once per request scope when they were made with one.
 */
public final class RunSteps {

    private final StepRepository steps;
    private final StepVerdictRepository verdicts;

    public RunSteps(StepRepository steps, StepVerdictRepository verdicts) {
        this.steps = Objects.requireNonNull(steps, "steps");
        this.verdicts = Objects.requireNonNull(verdicts, "verdicts");
    }

    /** The steps of run {@code runId}, by step index; empty when it has none (or was never stored). */
    public List<RunStep> ofRun(String runId) {
        return RunStep.of(runId, steps.ofRun(runId), verdicts.ofRun(runId));
    }

    /**
     * The steps of every run of {@code runIds}, in their order, reading each repository once: one query for many
     * runs, or a run's own read (shared within a request scope) for a single one.
     */
    public Map<String, List<RunStep>> ofRuns(Collection<String> runIds) {
        List<String> ids = runIds.stream().distinct().toList();
        if (ids.size() == 1) {
            return Map.of(ids.getFirst(), ofRun(ids.getFirst()));
        }
        Map<String, List<StepRow>> started = steps.ofRuns(ids).stream()
                .collect(Collectors.groupingBy(StepRow::runId));
        Map<String, List<StepVerdict>> judged = verdicts.ofRuns(ids).stream()
                .collect(Collectors.groupingBy(StepVerdict::getRunId));
        Map<String, List<RunStep>> out = new LinkedHashMap<>();
        for (String id : ids) {
            out.put(id, RunStep.of(id, started.getOrDefault(id, List.of()), judged.getOrDefault(id, List.of())));
        }
        return out;
    }
}
