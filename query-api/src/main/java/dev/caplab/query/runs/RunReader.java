package dev.caplab.query.runs;

import dev.caplab.store.access.RunFilter;
import dev.caplab.store.row.RunKindCount;
import dev.caplab.store.row.SloRuleValue;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads runs from the store; runs a client deleted are in none of its answers. */
public interface RunReader {

    /** Runs matching the filter, newest first. */
    List<RunSummary> find(RunFilter filter);

    /** The run, empty when it was never stored or a client deleted it. */
    Optional<RunSummary> get(String runId);

    /** When a client deleted the run; empty when it was not deleted. */
    Optional<Instant> deletedAt(String runId);

    /** What to throw for a run {@link #get} did not find: says when it was deleted, if it was. */
    default RunNotFoundException missing(String runId) {
        return deletedAt(runId).map(at -> RunNotFoundException.deleted(runId, at))
                .orElseGet(() -> new RunNotFoundException(runId));
    }

    /** Every stored run counted by the values the runs list filters by. */
    List<RunKindCount> kinds();

    /** The runs the filter matches (its page aside), counted by the values the runs list filters by. */
    List<RunKindCount> kinds(RunFilter filter);

    /** The newest run of each tier of one system (any system when null), by tier; a tier without runs is absent. */
    Map<String, RunSummary> newestOfTiers(String sutName, Collection<String> tiers);

    /** The given runs, those that exist, in the order asked. */
    List<RunSummary> getAll(List<String> runIds);

    /** The SLO rules the run declared, as stored; empty when it declared none or is unknown. */
    List<SloRuleValue> sloRules(String runId);
}
