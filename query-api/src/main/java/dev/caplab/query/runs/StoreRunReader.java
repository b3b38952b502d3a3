package dev.caplab.query.runs;

import dev.caplab.store.access.DeletedRunRepository;
import dev.caplab.store.access.RunFilter;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.row.DeletedRunRow;
import dev.caplab.store.row.RunKindCount;
import dev.caplab.store.row.RunRow;
import dev.caplab.store.row.SloRuleValue;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.stereotype.Component;

/** Reads runs through the store's own repositories, the ones the sink writes them with. */
@Component
class StoreRunReader implements RunReader {

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
        return runs.find(runId).map(StoreRunReader::summary);
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
    public List<RunSummary> getAll(List<String> runIds) {
        return runs.findAll(runIds).stream().map(StoreRunReader::summary).toList();
    }

    @Override
    public List<SloRuleValue> sloRules(String runId) {
        return runs.find(runId).map(RunRow::sloRules).orElse(List.of());
    }

    static RunSummary summary(RunRow r) {
        return new RunSummary(r.runId(), r.startedAt(), r.endedAt(), r.status(), r.sutName(), r.sutVersion(),
                r.provider(), r.region(), r.instanceType(), r.tier(), r.vcpu(), r.memoryBytes(),
                r.nominalEgressMbps(), r.measuredEgressMbps(), r.tool(), r.loadExpression(), r.labels(), r.origin());
    }
}
