package dev.caplab.store.http;

import dev.caplab.store.engine.ClickHouseException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClickHouseRequestTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void urlOptionsSplitIntoParamsSettingsAndProtocolOptions() {
        ClickHouseRequest r = ClickHouseRequest.parse("query_id=q1&database=caplab&param_run=r%201&max_threads=2"
                + "&wait_end_of_query=1&readonly=1&default_format=JSONEachRow", Map.of(), utf8("SELECT 1"));
        assertThat(r.params()).isEqualTo(Map.of("run", "r 1"));
        assertThat(r.settings()).isEqualTo(Map.of("max_threads", "2"));
        assertThat(r.database()).contains("caplab");
        assertThat(r.format()).isEqualTo("JSONEachRow");
        assertThat(r.queryId()).contains("q1");
        assertThat(r.readOnly()).isTrue();
        assertThat(r.insert()).isEmpty();
    }

    @Test
    void headersAsTheJdbcDriverSendsThem() {
        String basic = Base64.getEncoder().encodeToString(utf8("default:pw:with:colons"));
        ClickHouseRequest r = ClickHouseRequest.parse(null, Map.of("x-clickhouse-format", "RowBinaryWithNamesAndTypes",
                "x-clickhouse-database", "caplab", "authorization", "Basic " + basic), utf8("SELECT 1"));
        assertThat(r.format()).isEqualTo("RowBinaryWithNamesAndTypes");
        assertThat(r.database()).contains("caplab");
        assertThat(r.user()).contains("default");
        assertThat(r.password()).isEqualTo("pw:with:colons");
        assertThat(r.readOnly()).isFalse();
    }

    @Test
    void theUrlQueryAndTheBodyAreJoinedByANewline() {
        ClickHouseRequest r = ClickHouseRequest.parse("query=SELECT", Map.of(), utf8("1"));
        assertThat(new String(r.statement(), StandardCharsets.UTF_8)).isEqualTo("SELECT\n1");
    }

    @Test
    void unsupportedOrUnsafeOptionsAreRefusedWithClickHouseCodes() {
        assertThatThrownBy(() -> ClickHouseRequest.parse("compress=1", Map.of(), utf8("SELECT 1")))
                .isInstanceOfSatisfying(ClickHouseException.class, e -> assertThat(e.code()).isEqualTo(36));
        assertThatThrownBy(() -> ClickHouseRequest.parse("max_threads%3D1%2C%20readonly=0", Map.of(), utf8("SELECT 1")))
                .isInstanceOfSatisfying(ClickHouseException.class, e -> assertThat(e.code()).isEqualTo(115));
        assertThatThrownBy(() -> ClickHouseRequest.parse("default_format=CSV%3B%20DROP", Map.of(), utf8("SELECT 1")))
                .isInstanceOfSatisfying(ClickHouseException.class, e -> assertThat(e.code()).isEqualTo(73));
    }

    @Test
    void insertDataIsSplitOffOnlyForPlainFormatInserts() {
        assertThat(InsertData.of("INSERT INTO t (a) FORMAT RowBinary", new byte[] {10, 10})).get()
                .satisfies(d -> {
                    assertThat(d.head()).isEqualTo("INSERT INTO t (a)");
                    assertThat(d.format()).isEqualTo("RowBinary");
                    assertThat(d.data()).containsExactly(10, 10);
                });
        assertThat(InsertData.of(null, utf8("INSERT INTO t FORMAT TSV\n1\n\n2\n"))).get()
                .satisfies(d -> assertThat(new String(d.data(), StandardCharsets.UTF_8)).isEqualTo("1\n\n2\n"));
        assertThat(InsertData.of(null, utf8("INSERT INTO t (s) VALUES ('x FORMAT TSV\n')"))).isEmpty();
        assertThat(InsertData.of(null, utf8("INSERT INTO t SELECT * FROM u FORMAT TSV\n"))).isEmpty();
        assertThat(InsertData.of("SELECT 1 FORMAT TSV", utf8("x"))).isEmpty();
    }

    @Test
    void errorCodesMapToTheStatusClickHouseUses() {
        assertThat(QueryHandler.statusFor(62)).isEqualTo(400);
        assertThat(QueryHandler.statusFor(516)).as("401 so clients and browsers know credentials are wanted").isEqualTo(401);
        assertThat(QueryHandler.statusFor(60)).isEqualTo(404);
        assertThat(QueryHandler.statusFor(241)).isEqualTo(500);
    }
}
