package dev.caplab.query.runs;

import dev.caplab.store.access.AlertRepository;
import dev.caplab.store.row.AlertRow;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.stereotype.Component;

/** Reads alerts through the store's own repository, the one the sink writes them with. */
@Component
class StoreAlertReader implements AlertReader {

    private final AlertRepository repository;

    StoreAlertReader(DataSource dataSource) {
        this.repository = new AlertRepository(dataSource);
    }

    @Override
    public List<AlertRow> alerts(String runId) {
        return repository.ofRun(runId);
    }
}
