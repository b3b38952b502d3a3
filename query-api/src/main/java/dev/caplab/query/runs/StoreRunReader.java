package dev.caplab.query.runs;

import dev.caplab.query.web.RequestReads;
import dev.caplab.store.access.DeletedRunRepository;
import dev.caplab.store.access.RunFilter;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.row.DeletedRunRow;
import dev.caplab.store.row.RunKindCount;
import dev.caplab.store.row.RunRow;
import dev.caplab.store.row.SloRuleValue;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.springframework.stereotype.Component;

/**
 * Reads runs through the store's own repositories, the ones the sink writes them with. A run's row is read once per
 * request ({@link RequestReads}) however many services ask for it, by id or among others.
 */
@Component
class StoreRunReader implements RunReader {

    private static final String RUN = "run";

    private final RunRepository runs;
    private final DeletedRunRepository deletions;

    StoreRunReader(DataSource dataSource) {
        this.runs = new RunRepository(dataSource);
        this.deletions = new DeletedRunRepository(dataSource);
    }

    @Override
    public List<RunSummary> find(RunFilter filter) {
        return runs.find(filter).stream().map(StoreRunReader::summary).toList();
    }

    @Override
    public Optional<RunSummary> get(String runId) {
        return row(runId).map(StoreRunReader::summary);
    }

    private Optional<RunRow> row(String runId) {
        return RequestReads.once(RUN, List.of(runId), () -> runs.find(runId));
    }

    @Override
    public Optional<Instant> deletedAt(String runId) {
        return deletions.find(runId).map(DeletedRunRow::deletedAt);
    }

    @Override
    public List<RunKindCount> kinds() {
        return runs.kinds();
    }

    @Override
    public List<RunKindCount> kinds(RunFilter filter) {
        return runs.kinds(filter);
    }

    @Override
    public Map<String, RunSummary> newestOfTiers(String sutName, Collection<String> tiers) {
        Map<String, RunSummary> byTier = new HashMap<>();
        runs.newestOfTiers(sutName, tiers).forEach((tier, row) -> {
            RequestReads.keep(RUN, List.of(row.runId()), Optional.of(row));
            byTier.put(tier, summary(row));
        });
        return byTier;
    }

    @Override
    public List<RunSummary> getAll(List<String> runIds) {
        List<String> distinct = runIds.stream().distinct().toList();
        Map<String, Optional<RunRow>> rows = new HashMap<>();
        for (String id : distinct) {
            Optional<RunRow> kept = RequestReads.kept(RUN, List.of(id));
            if (kept != null) {
                rows.put(id, kept);
            }
        }
        List<String> unread = distinct.stream().filter(id -> !rows.containsKey(id)).toList();
        if (!unread.isEmpty()) {
            Map<String, RunRow> read = runs.findAll(unread).stream()
                    .collect(Collectors.toMap(RunRow::runId, Function.identity()));
            for (String id : unread) {
                Optional<RunRow> row = Optional.ofNullable(read.get(id));
                rows.put(id, row);
                RequestReads.keep(RUN, List.of(id), row);
            }
        }
        return distinct.stream().map(rows::get).flatMap(Optional::stream).map(StoreRunReader::summary).toList();
    }

    @Override
    public List<SloRuleValue> sloRules(String runId) {
        return row(runId).map(RunRow::sloRules).orElse(List.of());
    }

    static RunSummary summary(RunRow r) {
        return new RunSummary(r.runId(), r.startedAt(), r.endedAt(), r.status(), r.sutName(), r.sutVersion(),
                r.provider(), r.region(), r.instanceType(), r.tier(), r.vcpu(), r.memoryBytes(),
                r.nominalEgressMbps(), r.measuredEgressMbps(), r.tool(), r.loadExpression(), r.labels(), r.origin());
    }
}
