package dev.caplab.app.up;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.broker.BrokerAuth;
import dev.caplab.schema.kafka.KafkaClientSecurity;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class EmbeddedKafkaAccessTest {

    private static final Path DATA = Path.of("/tmp/unused");

    @Test
    void withoutTokensKafkaIsOpenButStaysOnLoopbackWhateverHostSays() {
        EmbeddedKafkaAccess access = EmbeddedKafkaAccess.of(new UpSettings(DATA, "0.0.0.0", 0, 0, 9092, false, null,
                List.of()));
        assertThat(access.broker().host()).isEqualTo("127.0.0.1");
        assertThat(access.broker().auth()).isEqualTo(BrokerAuth.OPEN);
        assertThat(access.notice()).contains("OPEN").contains("every local user");
    }

    @Test
    void withTokensOnlyTheFirstReadWriteTokenOpensKafkaAsUserCaplab() {
        String readOnly = "read-only-token-0123456789";
        String firstFull = "first-full-token-0123456789";
        EmbeddedKafkaAccess access = EmbeddedKafkaAccess.of(new UpSettings(DATA, "10.0.0.5", 0, 0, 9092, false, null,
                List.of(readOnly + "=read", "write-only-token-0123456789=write", firstFull + "=write,read",
                        "second-full-token-0123456789=read,write")));
        assertThat(access.broker().host()).isEqualTo("10.0.0.5");
        assertThat(access.broker().auth())
                .isEqualTo(BrokerAuth.saslPlain(List.of(KafkaClientSecurity.plain("caplab", firstFull))));
        assertThat(access.notice()).contains("SASL/PLAIN required").contains("cli-3").contains("unencrypted")
                .doesNotContain(firstFull);
    }

    @Test
    void withTokensButNoneReadWriteOnlyCaplabsOwnRolesGetIn() {
        EmbeddedKafkaAccess access = EmbeddedKafkaAccess.of(new UpSettings(DATA, "127.0.0.1", 0, 0, 9092, false, null,
                List.of("read-only-token-0123456789=read")));
        assertThat(access.broker().auth()).isEqualTo(BrokerAuth.saslPlain(List.of()));
        assertThat(access.notice()).contains("own roles only").doesNotContain("unencrypted");
    }
}
