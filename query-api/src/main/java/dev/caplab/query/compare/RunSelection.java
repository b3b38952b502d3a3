package dev.caplab.query.compare;

import dev.caplab.store.access.RunRepository;
import dev.caplab.store.row.RunRow;
import dev.caplab.query.web.BadRequestParameterException;
import dev.caplab.store.access.RunFilter;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Which runs a comparison covers: the runs asked for by id, else every run of one system under test (the one asked
 * for, else the system of the most recent run), or, only when asked, the latest runs of every system.
 */
record RunSelection(List<RunRow> runs, String sut, String scope) {

    static final int MAX_RUNS = 50;

    RunSelection {
        runs = List.copyOf(runs);
    }

    static RunSelection of(RunRepository reader, List<String> runIds, Optional<String> sut, boolean acrossSystems) {
        if (sut.isPresent() && acrossSystems) {
            throw new BadRequestParameterException("acrossSystems", true, "contradicts sut=" + sut.get()
                    + "; ask for one system or for all");
        }
        if (!runIds.isEmpty()) {
            return requested(reader, runIds, sut);
        }
        if (acrossSystems) {
            List<RunRow> runs = reader.find(filter(null, MAX_RUNS));
            return new RunSelection(runs, onlySystem(runs), "the latest runs of every system (acrossSystems=true),"
                    + " compared per system and load expression");
        }
        if (sut.isPresent()) {
            return new RunSelection(reader.find(filter(sut.get(), MAX_RUNS)), sut.get(),
                    "runs of system " + sut.get() + " (sut=" + sut.get() + ")");
        }
        Optional<RunRow> latest = reader.find(filter(null, 1)).stream().findFirst();
        if (latest.isEmpty()) {
            return new RunSelection(List.of(), null, "no runs stored yet");
        }
        String system = latest.get().sutName();
        return new RunSelection(reader.find(filter(system, MAX_RUNS)), system,
                "runs of system " + system + ", the system of the most recent run " + latest.get().runId()
                + "; pass sut= for another system or acrossSystems=true for all of them");
    }

    private static RunSelection requested(RunRepository reader, List<String> runIds, Optional<String> sut) {
        if (runIds.size() > MAX_RUNS) {
            throw new BadRequestParameterException("runId", runIds.size() + " runs", "at most " + MAX_RUNS);
        }
        List<RunRow> runs = reader.findAll(runIds);
        if (runs.size() < runIds.size()) {
            List<String> missing = runIds.stream().filter(id -> runs.stream().noneMatch(r -> r.runId().equals(id)))
                    .toList();
            throw new BadRequestParameterException("runId", missing, "no such run");
        }
        if (sut.isPresent()) {
            List<String> others = runs.stream().filter(r -> !sut.get().equals(r.sutName()))
                    .map(r -> r.runId() + " (" + r.sutName() + ")").toList();
            if (!others.isEmpty()) {
                throw new BadRequestParameterException("runId", others, "not runs of sut=" + sut.get());
            }
        }
        TreeSet<String> systems = systems(runs);
        String one = onlySystem(runs);
        return new RunSelection(runs, one, one != null ? "the requested runs, all of system " + one
                : "the requested runs, which test different systems " + systems
                        + ": compared per system and load expression");
    }

    private static RunFilter filter(String sut, int limit) {
        return new RunFilter(sut, null, null, null, null, null, Map.of(), null, null, limit, 0);
    }

    private static TreeSet<String> systems(List<RunRow> runs) {
        return runs.stream().map(r -> Objects.requireNonNullElse(r.sutName(), Cohort.UNKNOWN)).collect(Collectors.toCollection(TreeSet::new));
    }

    private static String onlySystem(List<RunRow> runs) {
        TreeSet<String> systems = systems(runs);
        return systems.size() == 1 ? systems.first() : null;
    }
}
