package dev.caplab.app.up;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.broker.BrokerAuth;
import dev.caplab.broker.CaplabAcls;
import dev.caplab.broker.KafkaUser;
import dev.caplab.schema.kafka.KafkaClientSecurity;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class EmbeddedKafkaAccessTest {

    private static final Path DATA = Path.of("/tmp/unused");

    @Test
    void withoutTokensKafkaIsOpenButStaysOnLoopbackWhateverHostSays() {
        EmbeddedKafkaAccess access = EmbeddedKafkaAccess.of(new UpSettings(DATA, "0.0.0.0", 0, 0, 9092, false, null,
                List.of()));
        assertThat(access.broker().host()).isEqualTo("127.0.0.1");
        assertThat(access.broker().auth()).isEqualTo(BrokerAuth.OPEN);
        assertThat(access.roles()).isEqualTo(EmbeddedKafkaAccess.RoleLogins.NONE);
        assertThat(access.notice()).contains("OPEN").contains("every local user");
    }

    @Test
    void withTokensEachRoleHasItsOwnUserAndTheFirstWriteTokenOpensTheToolsUser() {
        String readOnly = "read-only-token-0123456789";
        String firstWriter = "first-write-token-0123456789";
        EmbeddedKafkaAccess access = EmbeddedKafkaAccess.of(new UpSettings(DATA, "10.0.0.5", 0, 0, 9092, false, null,
                List.of(readOnly + "=read", firstWriter + "=write", "full-token-0123456789=write,read")));
        assertThat(access.broker().host()).isEqualTo("10.0.0.5");
        assertThat(access.broker().auth().saslRequired()).isTrue();
        Map<String, KafkaUser> users = access.broker().auth().users().stream()
                .collect(Collectors.toMap(KafkaUser::name, u -> u));
        assertThat(users).containsOnlyKeys("caplab", "caplab_ingest", "caplab_streams", "caplab_sink");
        assertThat(users.get("caplab").login()).isEqualTo(KafkaClientSecurity.plain("caplab", firstWriter));
        assertThat(users.get("caplab").acls()).isEqualTo(CaplabAcls.tools("caplab"));
        // the roles log in with what the broker was given, never with a token
        assertThat(users.get("caplab_ingest").login()).isEqualTo(access.roles().ingest());
        assertThat(users.get("caplab_streams").login()).isEqualTo(access.roles().streams());
        assertThat(users.get("caplab_sink").login()).isEqualTo(access.roles().sink());
        assertThat(List.of(access.roles().ingest(), access.roles().streams(), access.roles().sink()))
                .extracting(KafkaClientSecurity::password).doesNotHaveDuplicates()
                .doesNotContain(readOnly, firstWriter);
        // beyond loopback no password crosses the network in clear
        assertThat(access.broker().tls()).isTrue();
        assertThat(access.notice()).contains("SASL/PLAIN and ACLs required").contains("cli-2")
                .contains("SASL_SSL").contains("/tmp/unused/kafka-tls/broker-cert.pem").doesNotContain(firstWriter);
    }

    @Test
    void withOnlyReadTokensNoOutsideUserGetsIn() {
        EmbeddedKafkaAccess access = EmbeddedKafkaAccess.of(new UpSettings(DATA, "127.0.0.1", 0, 0, 9092, false, null,
                List.of("read-only-token-0123456789=read")));
        assertThat(access.broker().auth().users()).extracting(KafkaUser::name)
                .containsExactlyInAnyOrder("caplab_ingest", "caplab_streams", "caplab_sink");
        assertThat(access.broker().tls()).isFalse();
        assertThat(access.notice()).contains("own roles only").doesNotContain("SASL_SSL");
    }
}
