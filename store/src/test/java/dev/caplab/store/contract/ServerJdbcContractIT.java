package dev.caplab.store.contract;

import dev.caplab.store.testing.EmbeddedClickHouse;

import java.util.Optional;

/** The same JDBC contract against a real ClickHouse server; every test is skipped without CLICKHOUSE_URL. */
class ServerJdbcContractIT extends JdbcContract {

    @Override
    Optional<EmbeddedClickHouse> target() {
        return EmbeddedClickHouse.external();
    }

    @Override
    String skipReason() {
        return EmbeddedClickHouse.URL_ENV + " is not set; no real ClickHouse server to test against";
    }
}
