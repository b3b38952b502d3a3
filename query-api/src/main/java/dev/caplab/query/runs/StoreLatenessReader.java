package dev.caplab.query.runs;

import dev.caplab.store.access.RunLatenessRepository;
import javax.sql.DataSource;
import org.springframework.stereotype.Component;

/** Reads {@code run_lateness} through the store's own repository, the one the sink writes it with. */
@Component
class StoreLatenessReader implements LatenessReader {

    private final RunLatenessRepository repository;

    StoreLatenessReader(DataSource dataSource) {
        this.repository = new RunLatenessRepository(dataSource);
    }

    @Override
    public RunLateness lateness(String runId) {
        return repository.find(runId).map(r -> new RunLateness(r.lateSamples(), r.beyondLatenessSamples()))
                .orElse(RunLateness.NONE);
    }
}
