package dev.caplab.store.contract;

import dev.caplab.store.testing.EmbeddedClickHouse;

import java.util.Optional;

/** The JDBC contract against chDB behind caplab's ClickHouse HTTP interface. */
class EmbeddedJdbcContractIT extends JdbcContract {

    @Override
    Optional<EmbeddedClickHouse> target() {
        return Optional.of(EmbeddedClickHouse.sharedEmbedded());
    }

    @Override
    String skipReason() {
        return "never skipped";
    }
}
